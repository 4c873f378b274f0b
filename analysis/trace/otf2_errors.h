#pragma once
// OTF2 reports errors through a process-wide callback that prints to stderr by
// default. We capture the message instead, so that a bad archive produces one
// clear line from us rather than a cascade of library diagnostics.
#include <otf2/OTF2_ErrorCodes.h>

#include <string>

namespace waitscope::trace {

// Installs the capturing callback for the lifetime of the object (nestable).
class Otf2ErrorCapture {
 public:
  Otf2ErrorCapture();
  ~Otf2ErrorCapture();
  Otf2ErrorCapture(const Otf2ErrorCapture&) = delete;
  Otf2ErrorCapture& operator=(const Otf2ErrorCapture&) = delete;

 private:
  OTF2_ErrorCallback previous_;
  void* previousData_;
};

// The last message OTF2 reported on this thread (empty if none), and clearing it.
std::string lastOtf2Error();
void clearOtf2Error();

// Whether OTF2 reported a failed allocation on this thread since the last
// clearOtf2OutOfMemory(): its calls then fail with messages about the file.
bool otf2RanOutOfMemory();
void clearOtf2OutOfMemory();

// "what OTF2 said" for a failed call: the captured message, else the code's description.
std::string describeOtf2Error(OTF2_ErrorCode code);

}  // namespace waitscope::trace
