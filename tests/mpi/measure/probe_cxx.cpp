// probe_cxx.cpp: a C++ function for the probe, so that the recorder's demangling of
// compiler-instrumented regions is tested (the region must be named "ws_probe::twice(int)").
namespace ws_probe {
int __attribute__((noinline)) twice(int x) { return 2 * x; }
}  // namespace ws_probe

extern "C" int probe_cxx(int x) { return ws_probe::twice(x); }
