#pragma once
// The command-line parser of the tools and the benchmarks. Each program declares its options
// and what to do with each; parse() reads the arguments in the order given and calls those
// handlers, so every program keeps its own messages, its own exit codes and its own rule for
// which problem is reported first. A handler reports a bad value by throwing (or by recording
// it, as waitscope-analyze does); it ends the parse early with stop() (--help) or
// stopAtCurrent() (waitscope-run: the program and its arguments follow).
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace waitscope::tools {

class CommandLineArgs {
 public:
  using FlagHandler = std::function<void()>;
  // The option's value, or the argument that is not an option.
  using ValueHandler = std::function<void(const std::string& value)>;
  // The option (as written) that is the last argument, without its value.
  using MissingHandler = std::function<void(const std::string& option)>;

  // An option without a value, under any of `names` ("-h", "--help").
  CommandLineArgs& flag(std::vector<std::string> names, FlagHandler handle);
  // "-h" and "--help": sets `asked` and stops the parse (the rest is not checked).
  CommandLineArgs& help(bool& asked);
  // An option whose value is the next argument, whatever it looks like ("-o", "--output").
  CommandLineArgs& option(std::vector<std::string> names, ValueHandler handle);
  // The option declared last also takes its value attached: "--metric=NAME".
  CommandLineArgs& attachedValue();
  // What to do when the option declared last has no value (default: whenMissing()).
  CommandLineArgs& ifMissing(MissingHandler handle);

  // An option that is the last argument, without its value, for options without ifMissing().
  CommandLineArgs& whenMissing(MissingHandler handle);
  // An argument that does not start with '-' (and "-" itself after dashIsPositional()).
  // Without this handler such arguments are unknown.
  CommandLineArgs& positional(ValueHandler handle);
  // Any other argument: an unknown option, or a positional argument nobody takes.
  CommandLineArgs& unknown(ValueHandler handle);
  // "-" alone is a positional argument (standard input or output), not an option.
  CommandLineArgs& dashIsPositional();

  // From a handler: read no further argument after the current one.
  void stop();
  // From a handler: read no further argument, and leave the current one unread.
  void stopAtCurrent();

  // Reads args (without the program name) and returns the index of the first argument left
  // unread: args.size() when all were read. Throws what the handlers throw; an argument
  // without a handler throws std::logic_error (a mistake in the program, not in its input).
  std::size_t parse(const std::vector<std::string>& args);
  // The same for main()'s argv: returns an index into argv (argc when all were read).
  int parse(int argc, char** argv);

 private:
  struct Option {
    std::vector<std::string> names;
    FlagHandler flag;    // set for a flag
    ValueHandler value;  // set for an option with a value
    bool attached = false;
    MissingHandler missing;
  };
  const Option* find(const std::string& argument) const;
  bool isOption(const std::string& argument) const;
  void noHandler(const std::string& argument) const;

  std::vector<Option> options_;
  MissingHandler missing_;
  ValueHandler positional_, unknown_;
  bool dashIsPositional_ = false;
  enum class Stop { No, After, At } stop_ = Stop::No;
};

}  // namespace waitscope::tools
