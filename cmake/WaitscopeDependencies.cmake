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

# The MPI implementation behind MPI_C_COMPILER (Open MPI or MPICH; mpicc.mpich selects MPICH beside
# Debian's default Open MPI) decides which mpiexec starts jobs and how: it must be that
# implementation's own, as the recording library and the analyzer link its libmpi.
if(MPI_C_LIBRARIES MATCHES "mpich")
  set(WAITSCOPE_MPI_IMPLEMENTATION MPICH)
  set(_ws_mpiexec_names mpiexec.mpich mpiexec.hydra mpiexec mpirun)
  set(_ws_mpiexec_banner "HYDRA|MPICH")
else()
  set(WAITSCOPE_MPI_IMPLEMENTATION OpenMPI)
  set(_ws_mpiexec_names mpiexec mpiexec.openmpi mpirun)
  set(_ws_mpiexec_banner "Open MPI|OpenRTE")
endif()
if(NOT MPIEXEC_PROGRAM)
  # FindMPI's mpiexec, unless it belongs to the other implementation (both live in /usr/bin).
  if(MPIEXEC_EXECUTABLE)
    execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _ws_version ERROR_QUIET TIMEOUT 30)
    if(_ws_version MATCHES "${_ws_mpiexec_banner}")
      set(MPIEXEC_PROGRAM ${MPIEXEC_EXECUTABLE} CACHE FILEPATH "mpiexec of the MPI the build links")
    endif()
  endif()
  find_program(MPIEXEC_PROGRAM NAMES ${_ws_mpiexec_names} REQUIRED)
endif()
execute_process(COMMAND ${MPIEXEC_PROGRAM} --version OUTPUT_VARIABLE _ws_version ERROR_QUIET TIMEOUT 30)
if(NOT _ws_version MATCHES "${_ws_mpiexec_banner}")
  message(FATAL_ERROR "${MPIEXEC_PROGRAM} is not the mpiexec of the ${WAITSCOPE_MPI_IMPLEMENTATION} the build links "
                      "(${MPI_C_LIBRARIES}): name the right one with -DMPIEXEC_PROGRAM=/path/to/mpiexec")
endif()
message(STATUS "MPI: ${WAITSCOPE_MPI_IMPLEMENTATION}, jobs start with ${MPIEXEC_PROGRAM}")
# waitscope-run's default launcher, looked up on PATH (so an installed tool finds the node's own).
get_filename_component(WAITSCOPE_MPIEXEC_NAME "${MPIEXEC_PROGRAM}" NAME)
# How tests and benchmark smoke runs start MPI jobs: as root on an oversubscribed machine. Open MPI
# needs flags for both; MPICH's hydra runs as root and oversubscribes as it is.
if(WAITSCOPE_MPI_IMPLEMENTATION STREQUAL "OpenMPI")
  set(WAITSCOPE_MPI_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1)
  set(WAITSCOPE_MPIEXEC ${MPIEXEC_PROGRAM} --oversubscribe)
else()
  set(WAITSCOPE_MPI_ENV "")
  set(WAITSCOPE_MPIEXEC ${MPIEXEC_PROGRAM})
endif()
# The same as one shell word sequence, for tests that build command lines ("mpiexec --oversubscribe").
list(JOIN WAITSCOPE_MPIEXEC " " WAITSCOPE_MPIEXEC_COMMAND)
# waitscope_add_mpi_test(NAME RANKS COMMAND...) runs a command under mpiexec: here, not in tests/,
# because the benchmarks' smoke runs use it too, also in a build without the tests.
function(waitscope_add_mpi_test name ranks)
  add_test(NAME ${name} COMMAND ${WAITSCOPE_MPIEXEC} -n ${ranks} ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS "backend;mpi" ENVIRONMENT "${WAITSCOPE_MPI_ENV}" TIMEOUT 300)
endfunction()
find_program(OTF2_PRINT_PROGRAM NAMES otf2-print)
