// The tools' command-line parser: arguments are handled in the order given, values are taken
// whatever they look like, "--name=value" only where allowed, and stop() / stopAtCurrent()
// leave the rest unread (waitscope-run passes everything after the program on).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/tools/command_line_args.h"

using waitscope::tools::CommandLineArgs;

namespace {

// Every call, in order, as "kind:argument".
struct Recorder {
  std::vector<std::string> calls;
  CommandLineArgs::FlagHandler flag(const std::string& name) {
    return [this, name] { calls.push_back("flag:" + name); };
  }
  CommandLineArgs::ValueHandler value(const std::string& kind) {
    return [this, kind](const std::string& v) { calls.push_back(kind + ":" + v); };
  }
};

// Lower case, so that `ctest -R cli` selects these tests.
TEST(command_line_cli, HandlesArgumentsInOrder) {
  Recorder r;
  CommandLineArgs options;
  options.flag({"--json"}, r.flag("json"))
      .option({"-o", "--output"}, r.value("output"))
      .positional(r.value("positional"))
      .unknown(r.value("unknown"));
  const std::vector<std::string> args = {"a", "--output", "x", "--json", "-q", "b", "-o", "y"};
  EXPECT_EQ(options.parse(args), args.size());
  EXPECT_EQ(r.calls, (std::vector<std::string>{"positional:a", "output:x", "flag:json", "unknown:-q", "positional:b",
                                               "output:y"}));
}

TEST(command_line_cli, TakesTheNextArgumentAsValueWhateverItLooksLike) {
  Recorder r;
  CommandLineArgs options;
  options.option({"-o"}, r.value("output")).flag({"--json"}, r.flag("json")).unknown(r.value("unknown"));
  options.parse(std::vector<std::string>{"-o", "--json", "-o", "-", "-o", ""});
  EXPECT_EQ(r.calls, (std::vector<std::string>{"output:--json", "output:-", "output:"}));
}

TEST(command_line_cli, MissingValueGoesToTheOptionsHandlerOrTheParsers) {
  Recorder r;
  CommandLineArgs options;
  options.option({"--from"}, r.value("from"))
      .option({"-n", "--np"}, r.value("np"))
      .ifMissing(r.value("np-missing"))
      .whenMissing(r.value("missing"));
  options.parse(std::vector<std::string>{"--from"});
  options.parse(std::vector<std::string>{"--np"});
  EXPECT_EQ(r.calls, (std::vector<std::string>{"missing:--from", "np-missing:--np"}));
}

TEST(command_line_cli, AttachedValuesOnlyWhereAllowed) {
  Recorder r;
  CommandLineArgs options;
  options.option({"--metric"}, r.value("metric"))
      .attachedValue()
      .option({"-o", "--output"}, r.value("output"))
      .flag({"--json"}, r.flag("json"))
      .unknown(r.value("unknown"));
  options.parse(std::vector<std::string>{"--metric=time", "--metric=", "--metric=a=b", "--output=x", "--json=1"});
  EXPECT_EQ(r.calls, (std::vector<std::string>{"metric:time", "metric:", "metric:a=b", "unknown:--output=x",
                                               "unknown:--json=1"}));
}

TEST(command_line_cli, DashAloneIsAnOptionUnlessDeclaredPositional) {
  Recorder plain, dash;
  CommandLineArgs a, b;
  a.positional(plain.value("positional")).unknown(plain.value("unknown"));
  b.dashIsPositional().positional(dash.value("positional")).unknown(dash.value("unknown"));
  const std::vector<std::string> args = {"-", "", "-x"};
  a.parse(args);
  b.parse(args);
  EXPECT_EQ(plain.calls, (std::vector<std::string>{"unknown:-", "positional:", "unknown:-x"}));
  EXPECT_EQ(dash.calls, (std::vector<std::string>{"positional:-", "positional:", "unknown:-x"}));
}

TEST(command_line_cli, WithoutAPositionalHandlerEveryOtherArgumentIsUnknown) {
  Recorder r;
  CommandLineArgs options;
  options.unknown(r.value("unknown"));
  options.parse(std::vector<std::string>{"file", "--x"});
  EXPECT_EQ(r.calls, (std::vector<std::string>{"unknown:file", "unknown:--x"}));
}

TEST(command_line_cli, HelpStopsAfterItself) {
  bool help = false;
  Recorder r;
  CommandLineArgs options;
  options.help(help).unknown(r.value("unknown"));
  const std::vector<std::string> args = {"-h", "--bogus"};
  EXPECT_EQ(options.parse(args), 1u);
  EXPECT_TRUE(help);
  EXPECT_TRUE(r.calls.empty());
}

// waitscope-run: options end at "--" (read) or at the program (left unread).
TEST(command_line_cli, StopLeavesTheRestUnread) {
  for (const bool dashes : {true, false}) {
    std::vector<std::string> args = {"-n", "4", "--", "prog", "-n", "--help"};
    if (!dashes) args.erase(args.begin() + 2);
    Recorder r;
    CommandLineArgs options;
    options.option({"-n"}, r.value("n"));
    options.flag({"--"}, [&] { options.stop(); })
        .positional([&](const std::string&) { options.stopAtCurrent(); })
        .unknown(r.value("unknown"));
    const std::size_t first = options.parse(args);
    ASSERT_LT(first, args.size());
    EXPECT_EQ(args[first], "prog");
    EXPECT_EQ(r.calls, std::vector<std::string>{"n:4"});
  }
}

TEST(command_line_cli, ArgvIndexCountsTheProgramName) {
  char prog[] = "tool", o[] = "-o", x[] = "x", dashes[] = "--", rest[] = "rest";
  char* argv[] = {prog, o, x, dashes, rest};
  std::string output;
  CommandLineArgs options;
  options.option({"-o"}, [&](const std::string& v) { output = v; });
  options.flag({"--"}, [&] { options.stop(); });
  EXPECT_EQ(options.parse(5, argv), 4);
  EXPECT_EQ(output, "x");
  EXPECT_EQ(options.parse(1, argv), 1);
}

TEST(command_line_cli, HandlersThrowThroughAndUnhandledArgumentsAreProgramErrors) {
  CommandLineArgs options;
  options.option({"--n"}, [](const std::string& v) { throw std::invalid_argument("bad " + v); });
  EXPECT_THROW(options.parse(std::vector<std::string>{"--n", "x"}), std::invalid_argument);
  EXPECT_THROW(options.parse(std::vector<std::string>{"--n"}), std::logic_error);
  EXPECT_THROW(options.parse(std::vector<std::string>{"file"}), std::logic_error);
  EXPECT_THROW(CommandLineArgs().attachedValue(), std::logic_error);
}

}  // namespace
