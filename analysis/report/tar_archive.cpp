#include "analysis/report/tar_archive.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace waitscope::report {
namespace {

constexpr std::size_t kBlock = 512;
// Field offsets and sizes of a ustar header.
constexpr std::size_t kName = 0, kNameSize = 100, kMode = 100, kUid = 108, kGid = 116, kSize = 124, kSizeSize = 12,
                      kMtime = 136, kChecksum = 148, kType = 156, kMagic = 257, kPrefix = 345, kPrefixSize = 155;

std::uint64_t checksumOf(const char* header) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < kBlock; ++i)
    sum += (i >= kChecksum && i < kChecksum + 8) ? ' ' : static_cast<unsigned char>(header[i]);
  return sum;
}

// An octal field (spaces and NULs around the digits), or GNU's base-256 form
// for sizes beyond 8 GiB (first byte 0x80).
std::uint64_t numberField(const char* field, std::size_t size, const char* what) {
  if (static_cast<unsigned char>(field[0]) == 0x80) {
    std::uint64_t v = 0;
    for (std::size_t i = 1; i < size; ++i) {
      if (v >> 56) throw TarError(std::string("tar header: ") + what + " too large");
      v = v << 8 | static_cast<unsigned char>(field[i]);
    }
    return v;
  }
  std::size_t i = 0;
  while (i < size && field[i] == ' ') ++i;
  std::uint64_t v = 0;
  bool digits = false;
  for (; i < size && field[i] >= '0' && field[i] <= '7'; ++i, digits = true) {
    if (v >> 60) throw TarError(std::string("tar header: ") + what + " too large");
    v = v * 8 + static_cast<std::uint64_t>(field[i] - '0');
  }
  for (; i < size; ++i)
    if (field[i] != ' ' && field[i] != '\0') throw TarError(std::string("tar header: ") + what + " is not a number");
  if (!digits) throw TarError(std::string("tar header: ") + what + " is empty");
  return v;
}

std::string textField(const char* field, std::size_t size) {
  return std::string(field, std::find(field, field + size, '\0'));
}

void putOctal(char* field, std::size_t size, std::uint64_t value) {
  // size-1 octal digits and a NUL, as GNU and BSD tar write them.
  std::snprintf(field, size, "%0*llo", static_cast<int>(size - 1), static_cast<unsigned long long>(value));
}

}  // namespace

std::vector<TarEntry> readTar(const std::string& archive) {
  std::vector<TarEntry> out;
  std::string longName;  // from a GNU 'L' member, for the next member
  std::size_t at = 0;
  while (true) {
    if (archive.size() - at < kBlock) {
      if (at == archive.size() && !out.empty()) return out;  // some writers omit the end blocks
      throw TarError(at == 0 ? "not a tar archive (too short)" : "truncated tar archive");
    }
    const char* header = archive.data() + at;
    if (std::all_of(header, header + kBlock, [](char c) { return c == '\0'; })) {
      if (out.empty()) throw TarError("empty tar archive");
      return out;
    }
    std::uint64_t stored = 0;
    try {
      stored = numberField(header + kChecksum, 8, "checksum");
    } catch (const TarError&) {
      stored = ~checksumOf(header);  // reported as a bad checksum below
    }
    if (stored != checksumOf(header))
      throw TarError(at == 0 ? "not a tar archive (bad header checksum)" : "damaged tar header (bad checksum)");
    const std::uint64_t size = numberField(header + kSize, kSizeSize, "size");
    at += kBlock;
    if (size > archive.size() - at) throw TarError("truncated tar archive (a member ends beyond the file)");
    const char type = header[kType];
    std::string data = archive.substr(at, size);
    at += static_cast<std::size_t>((size + kBlock - 1) / kBlock * kBlock);
    at = std::min(at, archive.size());
    if (type == 'L') {
      longName = textField(data.data(), data.size());
      continue;
    }
    if (type != '0' && type != '\0' && type != '7') {
      longName.clear();
      continue;  // directories, links, pax headers: nothing Cube stores
    }
    std::string name = textField(header + kName, kNameSize);
    if (std::memcmp(header + kMagic, "ustar", 5) == 0) {
      const std::string prefix = textField(header + kPrefix, kPrefixSize);
      if (!prefix.empty()) name = prefix + "/" + name;
    }
    if (!longName.empty()) name = std::move(longName);
    longName.clear();
    out.push_back({std::move(name), std::move(data)});
  }
}

std::string writeTar(const std::vector<TarEntry>& entries) {
  std::string out;
  for (const TarEntry& e : entries) {
    if (e.name.empty() || e.name.size() > kNameSize) throw TarError("tar member name must have 1 to 100 bytes");
    char header[kBlock] = {};
    std::memcpy(header + kName, e.name.data(), e.name.size());
    putOctal(header + kMode, 8, 0644);
    putOctal(header + kUid, 8, 0);
    putOctal(header + kGid, 8, 0);
    putOctal(header + kSize, kSizeSize, e.data.size());
    putOctal(header + kMtime, 12, 0);  // fixed, so equal reports give equal files
    header[kType] = '0';
    std::memcpy(header + kMagic, "ustar", 6);
    std::memcpy(header + kMagic + 6, "00", 2);
    std::snprintf(header + kChecksum, 8, "%06llo", static_cast<unsigned long long>(checksumOf(header)));
    header[kChecksum + 7] = ' ';
    out.append(header, kBlock);
    out += e.data;
    out.append((kBlock - e.data.size() % kBlock) % kBlock, '\0');
  }
  out.append(2 * kBlock, '\0');
  return out;
}

}  // namespace waitscope::report
