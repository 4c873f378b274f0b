#pragma once
// What a fuzzed report reader may do with a damaged file: load a consistent
// report, or refuse it with one line that starts with the file's name.
// Anything else (a crash, an exception of another type, an inconsistent
// report, a multi-line message) fails the test.
#include <gtest/gtest.h>

#include <string>

#include "analysis/report/report_io.h"
#include "analysis/report/report_queries.h"

namespace waitscope::test {

enum class Outcome { Loaded, Rejected };

template <typename Reader>
Outcome readOrReject(Reader read, const std::string& path) {
  try {
    const report::Report r = read(path);
    EXPECT_EQ(report::firstProblem(r), "") << "the reader let an inconsistent report through";
    return Outcome::Loaded;
  } catch (const report::ReportError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(path + ": ", 0), 0U) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    return Outcome::Rejected;
  }
}

}  // namespace waitscope::test
