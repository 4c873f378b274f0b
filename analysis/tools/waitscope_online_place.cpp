// waitscope-online-place: what the K tool places of `waitscope-run --online` run. The place's
// analysis happens inside MPI_Init, in libwaitscope-measure (linked here, and preloaded by
// waitscope-run): on a process whose rank is at least the application's size, MPI_Init runs the
// place to the end of the application's run.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (!std::getenv("WAITSCOPE_ONLINE")) {
    std::fprintf(stderr, "waitscope-online-place: started by `waitscope-run --online`; it does nothing on its own\n");
    return 2;
  }
  MPI_Init(&argc, &argv);
  MPI_Finalize();
  return 0;
}
