#pragma once
// Owning handles for an SQLite connection and a prepared statement, shared by
// the report reader and writer. Failures throw SqliteFailure with SQLite's own
// message; the reader and writer turn it into a ReportError that names the file.
#include <sqlite3.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace waitscope::report::detail {

class SqliteFailure : public std::runtime_error {
 public:
  SqliteFailure(const std::string& message, int code) : std::runtime_error(message), code_(code) {}
  // The primary result code (SQLITE_NOTADB, SQLITE_CORRUPT, ...).
  int code() const { return code_; }

 private:
  int code_;
};

class Database {
 public:
  Database(const std::string& path, int flags) {
    const int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
      // "unable to open database file" says less than the system's reason.
      const int error = db_ != nullptr ? sqlite3_system_errno(db_) : 0;
      const std::string message = error != 0        ? std::strerror(error)
                                  : db_ != nullptr ? sqlite3_errmsg(db_)
                                                   : sqlite3_errstr(rc);
      sqlite3_close(db_);
      db_ = nullptr;
      throw SqliteFailure(message, rc & 0xff);
    }
    sqlite3_extended_result_codes(db_, 0);
  }
  ~Database() { sqlite3_close(db_); }
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  sqlite3* get() const { return db_; }

  void check(int rc) const {
    if (rc != SQLITE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE) throw SqliteFailure(sqlite3_errmsg(db_), rc & 0xff);
  }
  void exec(const char* sql) const { check(sqlite3_exec(db_, sql, nullptr, nullptr, nullptr)); }
  // Closes now, so that a failure to flush is reported rather than lost in the destructor.
  void close() {
    const int rc = sqlite3_close(db_);
    if (rc != SQLITE_OK) throw SqliteFailure(sqlite3_errmsg(db_), rc & 0xff);
    db_ = nullptr;
  }

 private:
  sqlite3* db_ = nullptr;
};

class Statement {
 public:
  Statement(const Database& db, std::string_view sql) : db_(db) {
    db_.check(sqlite3_prepare_v2(db_.get(), sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr));
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Binding (1-based, as in SQLite). The bound text and blobs must outlive step().
  Statement& bind(int i, std::int64_t v) { return checked(sqlite3_bind_int64(stmt_, i, v)); }
  Statement& bind(int i, double v) { return checked(sqlite3_bind_double(stmt_, i, v)); }
  Statement& bind(int i, std::string_view v) {
    return checked(sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC));
  }
  // An empty blob stays a blob (a null pointer would bind NULL).
  Statement& bindBlob(int i, const void* data, std::size_t size) {
    if (size == 0) return checked(sqlite3_bind_zeroblob(stmt_, i, 0));
    return checked(sqlite3_bind_blob64(stmt_, i, data, size, SQLITE_STATIC));
  }
  Statement& bindNull(int i) { return checked(sqlite3_bind_null(stmt_, i)); }

  // True while there is a row to read.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    db_.check(rc);
    return rc == SQLITE_ROW;
  }
  // Runs an INSERT and readies the statement for the next one.
  void insert() {
    step();
    db_.check(sqlite3_reset(stmt_));
  }

  // Reading the current row (0-based columns).
  int type(int column) const { return sqlite3_column_type(stmt_, column); }
  std::int64_t integer(int column) const { return sqlite3_column_int64(stmt_, column); }
  double real(int column) const { return sqlite3_column_double(stmt_, column); }
  std::string text(int column) const {
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    if (data == nullptr) return {};
    return std::string(data, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
  }
  const void* blob(int column) const { return sqlite3_column_blob(stmt_, column); }
  std::size_t bytes(int column) const { return static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)); }

 private:
  Statement& checked(int rc) {
    db_.check(rc);
    return *this;
  }

  const Database& db_;
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace waitscope::report::detail
