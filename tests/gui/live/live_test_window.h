#pragma once
// The window the live tests follow runs in: offscreen, no message boxes, polling fast.
#include <memory>

#include "app/live/live_follower.h"
#include "app/live/live_run_controller.h"
#include "app/main_window.h"

namespace livetest {

inline std::unique_ptr<waitscope::app::MainWindow> liveWindow(int pollMs) {
  auto w = std::make_unique<waitscope::app::MainWindow>();
  w->setInteractive(false);
  w->resize(1100, 700);
  w->show();
  w->liveRun()->follower()->setPollInterval(pollMs);
  return w;
}

}  // namespace livetest
