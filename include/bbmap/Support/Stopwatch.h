//===- Stopwatch.h - wall-clock timing for stats ----------------*- C++ -*-===//
//
// Wall-clock seconds since the stopwatch started, or since the previous
// lap (bbmap-dump's --lookup-stats and --bat-stats lines use it).
//
// Threading: a Stopwatch is one thread's.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_SUPPORT_STOPWATCH_H
#define BBMAP_SUPPORT_STOPWATCH_H

#include <chrono>

namespace bbmap {

class Stopwatch {
public:
  /// Seconds since the start or the previous lap; starts the next lap.
  double lap() {
    Clock::time_point Now = Clock::now();
    double Seconds = std::chrono::duration<double>(Now - Start).count();
    Start = Now;
    return Seconds;
  }

private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point Start = Clock::now();
};

} // namespace bbmap

#endif // BBMAP_SUPPORT_STOPWATCH_H
