#pragma once
// Formatting shared by the report commands, the recorder and the online places: numbers that read
// back exactly, JSON strings, RFC 4180 CSV fields and ISO 8601 times.
#include <string>
#include <string_view>

namespace waitscope::report {

// The shortest text that reads back as the same double ("0.1", "1e-07"); "inf" or "nan" otherwise.
std::string exactNumber(double value);

// As exactNumber, but JSON's null for a value JSON cannot hold.
std::string jsonNumber(double value);

// A quoted JSON string; control characters are escaped, other bytes pass through.
std::string jsonString(std::string_view text);

// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
std::string csvField(std::string_view text);

// Now as ISO 8601 UTC, "2026-11-21T09:41:00Z" (report meta data, live status).
std::string isoUtcNow();

}  // namespace waitscope::report
