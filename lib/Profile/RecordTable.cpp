//===- RecordTable.cpp - identical profile records, summed ----------------===//
//
// One hash table over traces and samples alike, keyed by what makes two
// records the same, holding each record's position in the profile.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/RecordTable.h"

using namespace bbmap;

/// A multiply-xor mix: hash_combine cost a sixth of the time of reading a
/// pre-aggregated file.
unsigned RecordTable::KeyInfo::getHashValue(const Key &K) {
  uint64_t H = K.From * 0x9e3779b97f4a7c15ULL;
  H = (H ^ (H >> 29) ^ K.To) * 0xbf58476d1ce4e5b9ULL;
  H = (H ^ (H >> 31) ^ K.End) * 0x94d049bb133111ebULL;
  H ^= uint64_t(K.Kind) << 8 | K.Flags;
  return unsigned(H ^ (H >> 32));
}

std::pair<Trace &, bool> RecordTable::addTrace(BranchProfile &P,
                                               const Trace &T) {
  Key K{T.From, T.To, T.FallthroughEnd, uint8_t(T.Kind),
        uint8_t(T.FromExternal | T.ToExternal << 1 | T.Repeated << 2)};
  auto [It, New] = Index.try_emplace(K, P.Traces.size());
  if (New)
    P.Traces.push_back(T);
  return {P.Traces[It->second], New};
}

std::pair<Sample &, bool> RecordTable::addSample(BranchProfile &P,
                                                 const Sample &S) {
  auto [It, New] =
      Index.try_emplace(Key{S.Address, 0, 0, SampleKind, 0}, P.Samples.size());
  if (New)
    P.Samples.push_back(S);
  return {P.Samples[It->second], New};
}
