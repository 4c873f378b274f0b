#include "analysis/tools/report_cube.h"

#include "analysis/report/cube_writer.h"
#include "analysis/report/open_report.h"
#include "analysis/tools/command_line_args.h"
#include "analysis/tools/report_command_args.h"
#include "analysis/tools/usage_error.h"

namespace waitscope::tools {

int runCube(const std::vector<std::string>& args, std::ostream& out) {
  std::string path, output;
  bool help = false;
  CommandLineArgs options;
  options.option({"-o", "--output"}, [&](const std::string& file) { output = file; })
      .whenMissing([](const std::string&) { throw UsageError("cube: -o needs a file name"); })
      .help(help);
  takeOneFile(options, "cube", "report", path);
  options.parse(args);
  if (help) {
    out << "usage: waitscope-report " << kCubeUsage
        << "\nWrites the report as a Cube 4 file for Cube's GUI and tools: the metric tree with Scalasca's\n"
           "unique names, the call tree and the system tree with every exclusive value. Wait-state instances\n"
           "and the critical-path segments have no place in Cube and are left out.\n";
    return 0;
  }
  if (path.empty()) throw UsageError("cube: no report given");
  if (output.empty()) throw UsageError("cube: no output file given (-o FILE.cubex)");
  if (!output.ends_with(".cubex"))
    throw UsageError("cube: the output file must end in .cubex (Cube tells its formats apart by the extension)");
  report::writeCube(report::openAnyReport(path), output);
  return 0;
}

}  // namespace waitscope::tools
