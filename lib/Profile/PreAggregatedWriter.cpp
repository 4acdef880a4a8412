//===- PreAggregatedWriter.cpp - BOLT pre-aggregated text -----------------===//
//
// Summing profiles and writing them as perf2bolt's pre-aggregated input.
// Both work on the records sorted by one key: kind, ends, external bits.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/PreAggregatedWriter.h"
#include "ProfileText.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include <map>
#include <tuple>

using namespace llvm;

namespace bbmap {

namespace {

auto traceKey(const Trace &T) {
  return std::make_tuple(T.Kind, T.From, T.To, T.FallthroughEnd, T.FromExternal,
                         T.ToExternal, T.Source);
}

Error overflow() {
  return createStringError(inconvertibleErrorCode(),
                           "a summed count exceeds 2^63-1");
}

Error add(uint64_t &Total, uint64_t Count) {
  if (Count > MaxCount - Total)
    return overflow();
  Total += Count;
  return Error::success();
}

/// Sorts \p Traces by key and sums the records of one key.
Error canonicalize(std::vector<Trace> &Traces) {
  llvm::stable_sort(Traces, [](const Trace &A, const Trace &B) {
    return traceKey(A) < traceKey(B);
  });
  size_t Out = 0;
  for (size_t I = 0; I < Traces.size(); ++I) {
    if (Out && traceKey(Traces[Out - 1]) == traceKey(Traces[I])) {
      if (Error E = add(Traces[Out - 1].Count, Traces[I].Count))
        return E;
      if (Error E = add(Traces[Out - 1].Mispreds, Traces[I].Mispreds))
        return E;
      continue;
    }
    Traces[Out++] = Traces[I];
  }
  Traces.resize(Out);
  return Error::success();
}

/// Sorts \p Records by \p Key and sums the counts of one key.
template <typename RecordT, typename KeyFn>
Error sumByKey(std::vector<RecordT> &Records, KeyFn Key) {
  llvm::stable_sort(Records, [&](const RecordT &A, const RecordT &B) {
    return Key(A) < Key(B);
  });
  size_t Out = 0;
  for (size_t I = 0; I < Records.size(); ++I) {
    if (Out && Key(Records[Out - 1]) == Key(Records[I])) {
      if (Error E = add(Records[Out - 1].Count, Records[I].Count))
        return E;
      continue;
    }
    Records[Out++] = Records[I];
  }
  Records.resize(Out);
  return Error::success();
}

Error canonicalize(std::vector<Sample> &Samples) {
  return sumByKey(Samples, [](const Sample &S) { return S.Address; });
}

Error canonicalize(std::vector<BranchSample> &Samples) {
  return sumByKey(Samples, [](const BranchSample &S) {
    return std::make_pair(S.Address, S.RunStart);
  });
}

void writeLocation(raw_ostream &OS, uint64_t Address, bool External) {
  OS << ' ' << (External ? "X:" : "") << utohexstr(Address, true);
}

} // namespace

Error mergeProfile(BranchProfile &Into, BranchProfile &&From) {
  StringSet<> Known;
  for (const std::string &E : Into.Events)
    Known.insert(E);
  for (std::string &E : From.Events)
    if (Known.insert(E).second)
      Into.Events.push_back(std::move(E));
  llvm::sort(Into.Events);
  append_range(Into.Traces, From.Traces);
  append_range(Into.Samples, From.Samples);
  append_range(Into.BranchSamples, From.BranchSamples);
  Into.HasBranches |= From.HasBranches;
  Into.Translated |= From.Translated;
  Into.Skipped.OtherBinary += From.Skipped.OtherBinary;
  Into.Skipped.Outside += From.Skipped.Outside;
  Into.Read.add(From.Read);
  if (Error E = canonicalize(Into.Traces))
    return E;
  if (Error E = canonicalize(Into.BranchSamples))
    return E;
  return canonicalize(Into.Samples);
}

Error writePreAggregated(const BranchProfile &Profile, raw_ostream &OS) {
  if (Profile.Translated)
    return createStringError(inconvertibleErrorCode(),
                             "a profile translated through BAT cannot be "
                             "written as pre-aggregated text");
  BranchProfile P;
  P.Events = Profile.Events;
  P.Traces = Profile.Traces;
  P.Samples = Profile.Samples;
  if (Error E = canonicalize(P.Traces))
    return E;
  if (Error E = canonicalize(P.Samples))
    return E;
  llvm::sort(P.Events);
  P.Events.erase(std::unique(P.Events.begin(), P.Events.end()), P.Events.end());

  // The mispredictions of T and R lines go to the B line of their branch.
  using BranchKey = std::tuple<uint64_t, uint64_t, bool, bool>;
  std::map<BranchKey, std::pair<uint64_t, uint64_t>> Branches;
  for (const Trace &T : P.Traces) {
    if (!T.hasBranch())
      continue;
    bool Alone = T.Kind == TraceKind::Branch;
    if (!Alone && !T.Mispreds)
      continue;
    auto &[Count, Mispreds] =
        Branches[{T.From, T.To, T.FromExternal, T.ToExternal}];
    if (Alone)
      if (Error E = add(Count, T.Count))
        return E;
    if (Error E = add(Mispreds, T.Mispreds))
      return E;
  }

  for (const std::string &E : P.Events)
    OS << "E " << E << '\n';
  for (const Sample &S : P.Samples)
    OS << "S " << utohexstr(S.Address, true) << ' ' << S.Count << '\n';
  for (const auto &[Key, Counts] : Branches) {
    auto [From, To, FromExternal, ToExternal] = Key;
    OS << 'B';
    writeLocation(OS, From, FromExternal);
    writeLocation(OS, To, ToExternal);
    OS << ' ' << Counts.first << ' ' << Counts.second << '\n';
  }
  for (const Trace &T : P.Traces) {
    char Letter = 0;
    switch (T.Kind) {
    case TraceKind::Branch:
      continue;
    case TraceKind::BranchAndFallthrough:
      Letter = 'T';
      break;
    case TraceKind::Return:
      Letter = 'R';
      break;
    case TraceKind::Fallthrough:
      Letter = 'F';
      break;
    case TraceKind::ExternalOrigin:
      Letter = 'f';
      break;
    case TraceKind::ExternalReturn:
      Letter = 'r';
      break;
    }
    OS << Letter;
    if (T.hasBranch())
      writeLocation(OS, T.From, T.FromExternal);
    writeLocation(OS, T.To, T.ToExternal);
    writeLocation(OS, T.FallthroughEnd, false);
    OS << ' ' << T.Count << '\n';
  }
  return Error::success();
}

} // namespace bbmap
