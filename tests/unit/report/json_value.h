#pragma once
// A minimal JSON reader for tests that check the structure of JSON output
// (SARIF): objects keep their keys in order, numbers are doubles. Input is our
// own output, so errors only need to fail the test clearly.
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace waitscope::test {

struct Json {
  enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
  bool boolean = false;
  double number = 0.0;
  std::string string;
  std::vector<Json> array;
  std::vector<std::pair<std::string, Json>> object;

  bool has(const std::string& key) const {
    for (const auto& [k, v] : object)
      if (k == key) return true;
    return false;
  }
  const Json& operator[](const std::string& key) const {
    for (const auto& [k, v] : object)
      if (k == key) return v;
    throw std::runtime_error("no key '" + key + "'");
  }
  const Json& operator[](std::size_t i) const { return array.at(i); }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string& text) : s_(text) {}
  Json parse() {
    Json v = value();
    space();
    if (pos_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON at " + std::to_string(pos_) + ": " + what);
  }
  void space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
  }
  bool eat(char c) {
    space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  std::string str() {
    if (!eat('"')) fail("expected a string");
    std::string out;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      char c = s_[pos_++];
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c == '\\') {
        if (pos_ >= s_.size()) fail("bad escape");
        c = s_[pos_++];
        switch (c) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'r': out += '\r'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'u': {
            const unsigned code = static_cast<unsigned>(std::stoul(s_.substr(pos_, 4), nullptr, 16));
            pos_ += 4;
            if (code >= 0x80) fail("non-ASCII \\u escapes are not needed by these tests");
            out += static_cast<char>(code);
            break;
          }
          default: out += c;
        }
      } else {
        out += c;
      }
    }
    if (pos_++ >= s_.size()) fail("unterminated string");
    return out;
  }
  Json value() {
    space();
    Json v;
    if (pos_ >= s_.size()) fail("unexpected end");
    const char c = s_[pos_];
    if (c == '{') {
      ++pos_;
      v.kind = Json::Kind::Object;
      if (eat('}')) return v;
      do {
        std::string key = str();
        if (!eat(':')) fail("expected ':'");
        if (v.has(key)) fail("duplicate key " + key);
        v.object.emplace_back(std::move(key), value());
      } while (eat(','));
      if (!eat('}')) fail("expected '}'");
    } else if (c == '[') {
      ++pos_;
      v.kind = Json::Kind::Array;
      if (eat(']')) return v;
      do v.array.push_back(value());
      while (eat(','));
      if (!eat(']')) fail("expected ']'");
    } else if (c == '"') {
      v.kind = Json::Kind::String;
      v.string = str();
    } else if (s_.compare(pos_, 4, "true") == 0 || s_.compare(pos_, 5, "false") == 0) {
      v.kind = Json::Kind::Bool;
      v.boolean = s_[pos_] == 't';
      pos_ += v.boolean ? 4 : 5;
    } else if (s_.compare(pos_, 4, "null") == 0) {
      pos_ += 4;
    } else {
      const char* begin = s_.c_str() + pos_;
      char* end = nullptr;
      v.kind = Json::Kind::Number;
      v.number = std::strtod(begin, &end);
      if (end == begin) fail("unexpected character");
      pos_ += static_cast<std::size_t>(end - begin);
    }
    return v;
  }

  const std::string& s_;
  std::size_t pos_ = 0;
};

inline Json parseJson(const std::string& text) { return JsonParser(text).parse(); }

}  // namespace waitscope::test
