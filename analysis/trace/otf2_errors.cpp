#include "analysis/trace/otf2_errors.h"

#include <cstdarg>
#include <cstdio>

namespace waitscope::trace {
namespace {

thread_local std::string lastError;
thread_local bool outOfMemory = false;

OTF2_ErrorCode captureError(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code, const char* format,
                            va_list args) {
  char buffer[512];
  std::vsnprintf(buffer, sizeof buffer, format, args);
  outOfMemory = outOfMemory || code == OTF2_ERROR_ENOMEM || code == OTF2_ERROR_MEM_ALLOC_FAILED ||
                code == OTF2_ERROR_MEM_FAULT;
  lastError = buffer;
  if (lastError.empty()) lastError = OTF2_Error_GetDescription(code);
  return code;
}

}  // namespace

Otf2ErrorCapture::Otf2ErrorCapture() {
  previousData_ = nullptr;
  previous_ = OTF2_Error_RegisterCallback(captureError, nullptr);
}

Otf2ErrorCapture::~Otf2ErrorCapture() { OTF2_Error_RegisterCallback(previous_, previousData_); }

std::string lastOtf2Error() { return lastError; }
void clearOtf2Error() { lastError.clear(); }
bool otf2RanOutOfMemory() { return outOfMemory; }
void clearOtf2OutOfMemory() { outOfMemory = false; }

std::string describeOtf2Error(OTF2_ErrorCode code) {
  if (!lastError.empty()) return lastError;
  return OTF2_Error_GetDescription(code);
}

}  // namespace waitscope::trace
