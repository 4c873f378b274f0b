# Spack recipe for Waitscope. Put it in a Spack repository as packages/waitscope/package.py:
#   spack repo create site-repo && mkdir site-repo/packages/waitscope && cp package.py site-repo/packages/waitscope/
#   spack repo add site-repo && spack install waitscope~gui      (cluster nodes: no Qt)
# tests/packaging/check_recipes.py keeps the version and dependencies in step with CMakeLists.txt.

from spack.package import *


class Waitscope(CMakePackage):
    """Finds, explains and shows wait states in MPI programs, including MPI RMA: a PMPI
    recording library writing OTF2 traces, an MPI-parallel trace analyzer, command-line
    reports (text, CSV, compiler-style diagnostics, SARIF, Cube 4) and a Qt 6 desktop app."""

    # No public release archive yet: build a checkout with
    #   spack develop --path /path/to/waitscope waitscope@0.1.0 && spack install waitscope@0.1.0
    # and add url = ... and sha256=... to the version when a release tarball exists.
    version("0.1.0")

    variant("gui", default=True, description="Build the Qt 6 desktop application (waitscope)")

    depends_on("cmake@3.25:", type="build")
    depends_on("pkgconfig", type="build")

    depends_on("mpi")
    depends_on("otf2@3:")
    depends_on("sqlite@3:")
    depends_on("zlib-api")
    depends_on("elfutils")  # libdw: call sites of the recording library

    with when("+gui"):
        depends_on("qt-base@6.4: +gui +widgets +sql +opengl")
        depends_on("qt-svg@6.4:")
        # Spack's builtin repository has no Qt Charts package yet: a site repository
        # provides qt-charts (a QtPackage like qt-svg), or Qt is registered as an external.
        depends_on("qt-charts@6.4:")

    def cmake_args(self):
        return [
            self.define_from_variant("WAITSCOPE_GUI", "gui"),
            self.define("WAITSCOPE_TESTS", False),
            self.define("WAITSCOPE_BENCH", False),
        ]
