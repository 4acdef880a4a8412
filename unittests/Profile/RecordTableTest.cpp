//===- RecordTableTest.cpp - RecordTable against a map of keys ------------===//
//
// The table that sums identical records: which fields make two traces the
// same record (kind, ends, run end, the three flags) and which do not
// (counts, the branch's source), samples apart from traces, addresses the
// table's own empty and tombstone keys are made of, first-added order, and
// many random records against a std::map of the same keys.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/RecordTable.h"
#include "gtest/gtest.h"
#include <map>
#include <random>
#include <tuple>

using namespace bbmap;

namespace {

Trace trace(uint64_t From, uint64_t To, uint64_t End, TraceKind Kind,
            uint64_t Count = 1) {
  Trace T;
  T.From = From;
  T.To = To;
  T.FallthroughEnd = End;
  T.Kind = Kind;
  T.Count = Count;
  return T;
}

TEST(RecordTableTest, FindsAnEarlierTraceAndLeavesCountsToTheCaller) {
  BranchProfile P;
  RecordTable Table;
  auto [First, New] = Table.addTrace(P, trace(1, 2, 3, TraceKind::Return, 5));
  EXPECT_TRUE(New);
  EXPECT_EQ(First.Count, 5u);
  Trace Again = trace(1, 2, 3, TraceKind::Return, 7);
  Again.Mispreds = 3;
  Again.Source = BranchSource::Call;
  auto [Found, New2] = Table.addTrace(P, Again);
  EXPECT_FALSE(New2);
  // The earlier copy, untouched: the counts are the caller's to add.
  EXPECT_EQ(&Found, &P.Traces[0]);
  EXPECT_EQ(Found.Count, 5u);
  EXPECT_EQ(Found.Mispreds, 0u);
  EXPECT_EQ(Found.Source, BranchSource::Decode);
  ASSERT_EQ(P.Traces.size(), 1u);
}

TEST(RecordTableTest, EveryKeyFieldMakesANewRecord) {
  BranchProfile P;
  RecordTable Table;
  Trace Base = trace(10, 20, 30, TraceKind::BranchAndFallthrough);
  std::vector<Trace> Variants(8, Base);
  Variants[1].From = 11;
  Variants[2].To = 21;
  Variants[3].FallthroughEnd = 31;
  Variants[4].Kind = TraceKind::Branch;
  Variants[5].FromExternal = true;
  Variants[6].ToExternal = true;
  Variants[7].Repeated = true;
  for (size_t I = 0; I < Variants.size(); ++I) {
    Variants[I].Count = I + 1;
    EXPECT_TRUE(Table.addTrace(P, Variants[I]).second) << I;
  }
  // Each again: found, in the order first added.
  for (size_t I = 0; I < Variants.size(); ++I) {
    auto [T, New] = Table.addTrace(P, Variants[I]);
    EXPECT_FALSE(New) << I;
    EXPECT_EQ(T.Count, I + 1) << I;
  }
  EXPECT_EQ(P.Traces.size(), Variants.size());
}

TEST(RecordTableTest, SamplesApartFromTraces) {
  BranchProfile P;
  RecordTable Table;
  // A trace and a sample of the same numbers, and keys of zeros and of
  // all-ones (the table's own keys are zeros with kinds no record has).
  Table.addTrace(P, trace(0, 0, 0, TraceKind::Branch));
  Table.addTrace(P,
                 trace(UINT64_MAX, UINT64_MAX, UINT64_MAX, TraceKind::Return));
  Sample S;
  S.Address = 0;
  S.Count = 4;
  EXPECT_TRUE(Table.addSample(P, S).second);
  S.Address = UINT64_MAX;
  EXPECT_TRUE(Table.addSample(P, S).second);
  S.Address = 0;
  S.Count = 9;
  auto [Found, New] = Table.addSample(P, S);
  EXPECT_FALSE(New);
  EXPECT_EQ(&Found, &P.Samples[0]);
  EXPECT_EQ(Found.Count, 4u);
  EXPECT_FALSE(Table.addTrace(P, trace(0, 0, 0, TraceKind::Branch)).second);
  EXPECT_EQ(P.Traces.size(), 2u);
  EXPECT_EQ(P.Samples.size(), 2u);
}

TEST(RecordTableTest, RandomRecordsSumAsAMapWould) {
  using Key = std::tuple<uint64_t, uint64_t, uint64_t, int, bool, bool, bool>;
  std::mt19937_64 Rng(11);
  auto Below = [&](uint64_t N) { return Rng() % N; };
  BranchProfile P;
  RecordTable Table;
  std::map<Key, uint64_t> TraceSums;
  std::map<uint64_t, uint64_t> SampleSums;
  std::vector<Key> TraceOrder;
  std::vector<uint64_t> SampleOrder;
  for (unsigned I = 0; I < 200000; ++I) {
    uint64_t Count = 1 + Below(100);
    if (Below(4) == 0) {
      Sample S;
      S.Address = Below(300) * 0x1000000000ull;
      S.Count = Count;
      auto [Found, New] = Table.addSample(P, S);
      if (!New)
        Found.Count += Count;
      auto [It, Inserted] = SampleSums.try_emplace(S.Address, 0);
      It->second += Count;
      if (Inserted)
        SampleOrder.push_back(S.Address);
      ASSERT_EQ(New, Inserted);
      continue;
    }
    Trace T =
        trace(Below(8), Below(8) << 40, Below(4), TraceKind(Below(6)), Count);
    T.FromExternal = Below(8) == 0;
    T.ToExternal = Below(8) == 0;
    T.Repeated = Below(8) == 0;
    auto [Found, New] = Table.addTrace(P, T);
    if (!New)
      Found.Count += Count;
    Key K{T.From,         T.To,         T.FallthroughEnd, int(T.Kind),
          T.FromExternal, T.ToExternal, T.Repeated};
    auto [It, Inserted] = TraceSums.try_emplace(K, 0);
    It->second += Count;
    if (Inserted)
      TraceOrder.push_back(K);
    ASSERT_EQ(New, Inserted);
  }
  ASSERT_EQ(P.Traces.size(), TraceOrder.size());
  for (size_t I = 0; I < TraceOrder.size(); ++I) {
    const Trace &T = P.Traces[I];
    Key K{T.From,         T.To,         T.FallthroughEnd, int(T.Kind),
          T.FromExternal, T.ToExternal, T.Repeated};
    EXPECT_EQ(K, TraceOrder[I]) << I;
    EXPECT_EQ(T.Count, TraceSums[K]) << I;
  }
  ASSERT_EQ(P.Samples.size(), SampleOrder.size());
  for (size_t I = 0; I < SampleOrder.size(); ++I) {
    EXPECT_EQ(P.Samples[I].Address, SampleOrder[I]);
    EXPECT_EQ(P.Samples[I].Count, SampleSums[SampleOrder[I]]);
  }
}

} // namespace
