#pragma once
// A trace's definitions, held by pointer so that the traces of the ranks one process reads one
// after another (fewer analysis processes than ranks) can share one copy: the definitions are the
// same for every rank and grow with the ranks of the world (on 4096 ranks about 550 KB, once per
// rank held). Copying still copies them, so a Trace keeps value semantics; only the reader
// shares them, by asking to (shareWith).
#include <memory>

#include "analysis/trace/definitions.h"

namespace waitscope::trace {

class SharedDefinitions {
 public:
  SharedDefinitions() : defs_(std::make_shared<Definitions>()) {}
  SharedDefinitions(const SharedDefinitions& other) : defs_(std::make_shared<Definitions>(*other.defs_)) {}
  SharedDefinitions& operator=(const SharedDefinitions& other) {
    if (this != &other) defs_ = std::make_shared<Definitions>(*other.defs_);
    return *this;
  }
  // Moves leave nothing behind (a moved-from trace is not read again): a vector of traces grows
  // by moving them only if moves cannot throw.
  SharedDefinitions(SharedDefinitions&&) noexcept = default;
  SharedDefinitions& operator=(SharedDefinitions&&) noexcept = default;

  // From now on these are `other`'s definitions, the same object.
  void shareWith(const SharedDefinitions& other) { defs_ = other.defs_; }
  bool sharedWith(const SharedDefinitions& other) const { return defs_ == other.defs_; }

  Definitions* operator->() { return defs_.get(); }
  const Definitions* operator->() const { return defs_.get(); }
  Definitions& operator*() { return *defs_; }
  const Definitions& operator*() const { return *defs_; }
  operator Definitions&() { return *defs_; }
  operator const Definitions&() const { return *defs_; }

 private:
  std::shared_ptr<Definitions> defs_;
};

}  // namespace waitscope::trace
