//===- EventName.cpp - an event's name as perf prints it ------------------===//
//
// The tables and rules of perf 6.1's evsel__name for events the file does
// not name.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Perf/EventName.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace bbmap::perf {

namespace {

enum : uint32_t {
  TypeHardware = 0,
  TypeSoftware = 1,
  TypeTracepoint = 2,
  TypeHWCache = 3,
  TypeRaw = 4,
  TypeBreakpoint = 5,
};

const char *const HardwareNames[] = {"cycles",
                                     "instructions",
                                     "cache-references",
                                     "cache-misses",
                                     "branches",
                                     "branch-misses",
                                     "bus-cycles",
                                     "stalled-cycles-frontend",
                                     "stalled-cycles-backend",
                                     "ref-cycles"};

const char *const SoftwareNames[] = {
    "cpu-clock",        "task-clock",   "page-faults",  "context-switches",
    "cpu-migrations",   "minor-faults", "major-faults", "alignment-faults",
    "emulation-faults", "dummy",        "bpf-output",   "cgroup-switches"};

const char *const CacheNames[] = {"L1-dcache", "L1-icache", "LLC", "dTLB",
                                  "iTLB",      "branch",    "node"};
/// The first and second alias of each operation.
const char *const CacheOps[][2] = {
    {"load", "loads"}, {"store", "stores"}, {"prefetch", "prefetches"}};
const char *const CacheResults[] = {"refs", "misses"};
/// Which operations each cache has (perf's evsel__hw_cache_stat).
const unsigned CacheOpValid[] = {7, 5, 7, 7, 1, 1, 7};

/// perf's evsel__add_modifiers.
std::string modifiers(const EventAttr &A) {
  std::string M;
  bool ExcludeGuestDefault = false;
  auto Mod = [&](uint64_t ExcludeBit, char C) {
    if (!(A.Flags & ExcludeBit))
      M += C;
  };
  if (A.Flags &
      (attrflag::ExcludeKernel | attrflag::ExcludeUser | attrflag::ExcludeHV)) {
    Mod(attrflag::ExcludeKernel, 'k');
    Mod(attrflag::ExcludeUser, 'u');
    Mod(attrflag::ExcludeHV, 'h');
    ExcludeGuestDefault = true;
  }
  unsigned Precise =
      (A.Flags & attrflag::PreciseIPMask) >> attrflag::PreciseIPShift;
  if (Precise) {
    M += std::string("ppp").substr(0, Precise);
    ExcludeGuestDefault = true;
  }
  bool ExcludeGuest = A.Flags & attrflag::ExcludeGuest;
  if ((A.Flags & attrflag::ExcludeHost) ||
      ExcludeGuest == ExcludeGuestDefault) {
    Mod(attrflag::ExcludeHost, 'H');
    Mod(attrflag::ExcludeGuest, 'G');
  }
  return M.empty() ? M : ":" + M;
}

std::string cacheName(uint64_t Config) {
  unsigned Type = Config & 0xff, Op = Config >> 8 & 0xff,
           Result = Config >> 16 & 0xff;
  if (Type >= std::size(CacheNames))
    return "unknown-ext-hardware-cache-type";
  if (Op >= std::size(CacheOps))
    return "unknown-ext-hardware-cache-op";
  if (Result >= std::size(CacheResults))
    return "unknown-ext-hardware-cache-result";
  if (!(CacheOpValid[Type] >> Op & 1))
    return "invalid-cache";
  if (Result)
    return std::string(CacheNames[Type]) + "-" + CacheOps[Op][0] + "-" +
           CacheResults[Result];
  return std::string(CacheNames[Type]) + "-" + CacheOps[Op][1];
}

} // namespace

std::string eventName(const Event &E) {
  if (!E.Name.empty())
    return E.Name;
  const EventAttr &A = E.Attr;
  switch (A.Type) {
  case TypeHardware:
    return (A.Config < std::size(HardwareNames) ? HardwareNames[A.Config]
                                                : "unknown-hardware") +
           modifiers(A);
  case TypeSoftware:
    return (A.Config < std::size(SoftwareNames) ? SoftwareNames[A.Config]
                                                : "unknown-software") +
           modifiers(A);
  case TypeHWCache:
    return cacheName(A.Config) + modifiers(A);
  case TypeRaw:
    return "raw 0x" + utohexstr(A.Config, /*LowerCase=*/true) + modifiers(A);
  case TypeTracepoint:
    return "unknown tracepoint";
  default:
    return "unknown attr type: " + std::to_string(A.Type);
  }
}

} // namespace bbmap::perf
