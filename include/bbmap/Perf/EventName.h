//===- EventName.h - an event's name as perf prints it ----------*- C++ -*-===//
//
// perf script names a sample's event by the name the file gives it
// (EVENT_DESC, EVENT_UPDATE) and, failing that, by a name made from its
// attr: the hardware, software and cache event names with their
// modifiers (":u", ":ppp", ...) and "raw 0x..." (perf 6.1's evsel__name;
// breakpoints are not named).
//
// Threading: the functions keep no state; calls may run at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PERF_EVENTNAME_H
#define BBMAP_PERF_EVENTNAME_H

#include "bbmap/Perf/PerfEvent.h"
#include <string>

namespace bbmap::perf {

std::string eventName(const Event &E);

} // namespace bbmap::perf

#endif // BBMAP_PERF_EVENTNAME_H
