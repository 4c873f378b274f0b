#include "analysis/tools/command_line_args.h"

#include <stdexcept>
#include <utility>

namespace waitscope::tools {

CommandLineArgs& CommandLineArgs::flag(std::vector<std::string> names, FlagHandler handle) {
  options_.push_back({std::move(names), std::move(handle), {}, false, {}});
  return *this;
}

CommandLineArgs& CommandLineArgs::help(bool& asked) {
  return flag({"-h", "--help"}, [this, &asked] {
    asked = true;
    stop();
  });
}

CommandLineArgs& CommandLineArgs::option(std::vector<std::string> names, ValueHandler handle) {
  options_.push_back({std::move(names), {}, std::move(handle), false, {}});
  return *this;
}

CommandLineArgs& CommandLineArgs::attachedValue() {
  if (options_.empty() || !options_.back().value) throw std::logic_error("attachedValue() follows option()");
  options_.back().attached = true;
  return *this;
}

CommandLineArgs& CommandLineArgs::ifMissing(MissingHandler handle) {
  if (options_.empty() || !options_.back().value) throw std::logic_error("ifMissing() follows option()");
  options_.back().missing = std::move(handle);
  return *this;
}

CommandLineArgs& CommandLineArgs::whenMissing(MissingHandler handle) {
  missing_ = std::move(handle);
  return *this;
}

CommandLineArgs& CommandLineArgs::positional(ValueHandler handle) {
  positional_ = std::move(handle);
  return *this;
}

CommandLineArgs& CommandLineArgs::unknown(ValueHandler handle) {
  unknown_ = std::move(handle);
  return *this;
}

CommandLineArgs& CommandLineArgs::dashIsPositional() {
  dashIsPositional_ = true;
  return *this;
}

void CommandLineArgs::stop() { stop_ = Stop::After; }

void CommandLineArgs::stopAtCurrent() { stop_ = Stop::At; }

const CommandLineArgs::Option* CommandLineArgs::find(const std::string& argument) const {
  for (const Option& o : options_)
    for (const std::string& name : o.names)
      if (argument == name) return &o;
  return nullptr;
}

bool CommandLineArgs::isOption(const std::string& argument) const {
  return !argument.empty() && argument[0] == '-' && !(dashIsPositional_ && argument == "-");
}

void CommandLineArgs::noHandler(const std::string& argument) const {
  throw std::logic_error("command line: no handler for '" + argument + "'");
}

std::size_t CommandLineArgs::parse(const std::vector<std::string>& args) {
  stop_ = Stop::No;
  std::size_t i = 0;
  for (; i < args.size() && stop_ == Stop::No; ++i) {
    const std::string& a = args[i];
    if (const Option* o = find(a)) {
      if (o->flag) {
        o->flag();
      } else if (i + 1 < args.size()) {
        o->value(args[++i]);
      } else if (const MissingHandler& missing = o->missing ? o->missing : missing_) {
        missing(a);
      } else {
        noHandler(a);
      }
      continue;
    }
    const Option* attached = nullptr;
    std::size_t nameLength = 0;
    if (const std::size_t equals = a.find('='); isOption(a) && equals != std::string::npos) {
      attached = find(a.substr(0, equals));
      nameLength = equals + 1;
    }
    if (attached && attached->attached) {
      attached->value(a.substr(nameLength));
    } else if (!isOption(a) && positional_) {
      positional_(a);
    } else if (unknown_) {
      unknown_(a);
    } else {
      noHandler(a);
    }
  }
  return stop_ == Stop::At ? i - 1 : i;
}

int CommandLineArgs::parse(int argc, char** argv) {
  const std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + (argc > 0 ? argc : 0));
  return static_cast<int>(parse(args)) + (argc > 0 ? 1 : 0);
}

}  // namespace waitscope::tools
