# Backend dependencies: MPI, OTF2 (pkg-config: OTF2 3 ships no CMake package), SQLite, zlib.
find_package(MPI REQUIRED COMPONENTS C CXX)
find_package(PkgConfig REQUIRED)
pkg_check_modules(OTF2 REQUIRED IMPORTED_TARGET otf2>=3.0)
find_package(SQLite3 REQUIRED)
find_package(ZLIB REQUIRED)  # compressed Cube 4 data (ZCUBEX.DATA)
find_package(Threads REQUIRED)

if(WAITSCOPE_TESTS)
  find_package(GTest REQUIRED)
endif()

if(WAITSCOPE_GUI)
  find_package(Qt6 6.4 REQUIRED COMPONENTS Core Gui Widgets Charts Svg Sql Concurrent Test)
endif()

find_program(MPIEXEC_PROGRAM NAMES mpiexec mpirun REQUIRED)
# How tests and benchmark smoke runs start MPI jobs: as root on an oversubscribed machine.
set(WAITSCOPE_MPI_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1)
set(WAITSCOPE_MPIEXEC ${MPIEXEC_PROGRAM} --oversubscribe)
find_program(OTF2_PRINT_PROGRAM NAMES otf2-print)
