#include "analysis/trace/clock_correction_file.h"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace waitscope::trace {

namespace {

constexpr char kMagic[8] = {'W', 'S', 'C', 'L', 'O', 'C', 'K', '1'};

bool hasMagic(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[sizeof kMagic] = {};
  return in.read(magic, sizeof magic) && std::memcmp(magic, kMagic, sizeof kMagic) == 0;
}

template <typename T>
void put(std::ofstream& out, const T& value) {
  out.write(reinterpret_cast<const char*>(&value), sizeof value);
}

template <typename T>
void take(std::ifstream& in, T& value, const std::string& path) {
  if (!in.read(reinterpret_cast<char*>(&value), sizeof value))
    throw std::runtime_error(path + ": the clock-correction file is truncated; analyze the trace again");
}

}  // namespace

std::string clockCorrectionPath(const std::string& reportPath) { return reportPath + ".clock-correction"; }

bool isForeignFile(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec) && !hasMagic(path);
}

void writeClockCorrections(const std::string& path, const std::vector<LocationClockCorrection>& perLocation) {
  if (isForeignFile(path))
    throw std::runtime_error(path + ": exists and is not a clock-correction file; move it away or choose another "
                             "report name");
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(path + ": cannot be written (check the directory's permissions)");
  out.write(kMagic, sizeof kMagic);
  put(out, static_cast<std::uint32_t>(perLocation.size()));
  for (const LocationClockCorrection& c : perLocation) {
    put(out, static_cast<std::uint32_t>(c.anchors.size()));
    put(out, static_cast<std::uint32_t>(c.ramps.size()));
    for (const ClockAnchor& a : c.anchors) {
      put(out, a.event);
      put(out, a.offset);
    }
    for (const ClockRamp& r : c.ramps) {
      put(out, r.from);
      put(out, r.to);
      put(out, r.jump);
    }
  }
  if (!out.flush()) throw std::runtime_error(path + ": cannot be written (is the disk full?)");
}

std::vector<LocationClockCorrection> readClockCorrections(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot be opened; analyze the trace again to write it");
  char magic[sizeof kMagic] = {};
  if (!in.read(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof kMagic) != 0)
    throw std::runtime_error(path + ": not a Waitscope clock-correction file");
  std::uint32_t locations = 0;
  take(in, locations, path);
  std::vector<LocationClockCorrection> out;
  for (std::uint32_t l = 0; l < locations; ++l) {
    std::uint32_t anchors = 0, ramps = 0;
    take(in, anchors, path);
    take(in, ramps, path);
    LocationClockCorrection& c = out.emplace_back();
    for (std::uint32_t k = 0; k < anchors; ++k) {
      ClockAnchor a{};
      take(in, a.event, path);
      take(in, a.offset, path);
      c.anchors.push_back(a);
    }
    for (std::uint32_t k = 0; k < ramps; ++k) {
      ClockRamp r{};
      take(in, r.from, path);
      take(in, r.to, path);
      take(in, r.jump, path);
      c.ramps.push_back(r);
    }
  }
  return out;
}

void removeClockCorrections(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && hasMagic(path)) std::filesystem::remove(path, ec);
}

}  // namespace waitscope::trace
