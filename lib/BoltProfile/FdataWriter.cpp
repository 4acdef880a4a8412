//===- FdataWriter.cpp - BOLT fdata from an address-level profile ---------===//
//
// Writes perf2bolt's records (BoltRecords.h): the file lists functions by
// primary name, each with its branches, then the entries from unknown code
// (samples in no_lbr mode).
//
// Header order: BOLT writes `boltedcollection` before `no_lbr` even though
// its own fdata reader expects `no_lbr` first; that order is reproduced.
//
//===----------------------------------------------------------------------===//

#include "bbmap/BoltProfile/FdataWriter.h"
#include "llvm/ADT/StringSet.h"
#include <string>

using namespace llvm;

namespace bbmap {

namespace {

/// BOLT's getEscapedName: a backslash before each space and backslash.
void writeName(StringRef Name, raw_ostream &OS) {
  for (size_t Pos; (Pos = Name.find_first_of(" \\")) != StringRef::npos;
       Name = Name.drop_front(Pos + 1))
    OS << Name.take_front(Pos) << '\\' << Name[Pos];
  OS << Name;
}

void writeLocation(const BoltLocation &L, raw_ostream &OS) {
  OS << (std::get<0>(L) ? "1 " : "0 ");
  writeName(std::get<1>(L), OS);
  OS << ' ';
  OS.write_hex(std::get<2>(L));
  OS << ' ';
}

/// Writes \p D's lines; returns how many.
uint64_t writeFunction(const BoltFunctionRecords &D, raw_ostream &OS) {
  uint64_t Lines = 0;
  BoltLocation Self{true, D.Name, 0};
  for (const auto &[Key, C] : D.Branches) {
    std::get<2>(Self) = Key.first;
    writeLocation(Self, OS);
    writeLocation(Key.second, OS);
    OS << C.Mispreds << ' ' << C.Count << '\n';
    ++Lines;
  }
  for (const auto &[Key, C] : D.Entries) {
    if (std::get<0>(Key.first))
      continue;
    std::get<2>(Self) = Key.second;
    writeLocation(Key.first, OS);
    writeLocation(Self, OS);
    OS << C.Mispreds << ' ' << C.Count << '\n';
    ++Lines;
  }
  for (const auto &[Offset, Count] : D.Samples) {
    std::get<2>(Self) = Offset;
    writeLocation(Self, OS);
    OS << Count << '\n';
    ++Lines;
  }
  return Lines;
}

/// Writes the file; returns its data lines.
uint64_t writeRecords(const BoltRecordAggregator &Records, bool BasicSamples,
                      bool PerfEventNames, ArrayRef<std::string> Events,
                      raw_ostream &OS) {
  if (Records.isBAT())
    OS << "boltedcollection\n";
  if (BasicSamples) {
    OS << "no_lbr";
    StringSet<> Seen;
    for (const std::string &E : Events)
      if (Seen.insert(E).second)
        OS << ' ' << E << (PerfEventNames ? ":" : "");
    OS << '\n';
  }
  uint64_t Lines = 0;
  for (const auto &Entry : Records.records())
    Lines += writeFunction(Entry.second, OS);
  return Lines;
}

} // namespace

Expected<FdataStats> writeFdata(const BranchProfile &Profile,
                                BoltRecordAggregator &Records,
                                const FdataOptions &Options, raw_ostream &OS) {
  Records.add(Profile, Options.BasicSamples);
  FdataStats Stats = Records.stats();
  Stats.Objects = writeRecords(Records, Options.BasicSamples,
                               Options.PerfEventNames, Profile.Events, OS);
  Stats.Program =
      programStats(Records, Options.BasicSamples, Options.DensityCutoff,
                   Options.CountUnknownControlFlow);
  return Stats;
}

} // namespace bbmap
