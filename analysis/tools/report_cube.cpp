#include "analysis/tools/report_cube.h"

#include "analysis/report/cube_writer.h"
#include "analysis/report/open_report.h"
#include "analysis/tools/usage_error.h"

namespace waitscope::tools {

int runCube(const std::vector<std::string>& args, std::ostream& out) {
  std::string path, output;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-o" || a == "--output") {
      if (i + 1 == args.size()) throw UsageError("cube: -o needs a file name");
      output = args[++i];
    } else if (a == "-h" || a == "--help") {
      out << "usage: waitscope-report " << kCubeUsage
          << "\nWrites the report as a Cube 4 file for Cube's GUI and tools: the metric tree with Scalasca's\n"
             "unique names, the call tree and the system tree with every exclusive value. Wait-state instances\n"
             "and the critical-path segments have no place in Cube and are left out.\n";
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError("cube: unknown option " + a);
    } else if (path.empty()) {
      path = a;
    } else {
      throw UsageError("cube: more than one report given");
    }
  }
  if (path.empty()) throw UsageError("cube: no report given");
  if (output.empty()) throw UsageError("cube: no output file given (-o FILE.cubex)");
  if (!output.ends_with(".cubex"))
    throw UsageError("cube: the output file must end in .cubex (Cube tells its formats apart by the extension)");
  report::writeCube(report::openAnyReport(path), output);
  return 0;
}

}  // namespace waitscope::tools
