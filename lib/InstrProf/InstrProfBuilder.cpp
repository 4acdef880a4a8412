//===- InstrProfBuilder.cpp - build InstrProfile models -------------------===//
//
// Storage is reused across profiles: records are reset in place (their
// vectors keep their capacity), and a name list read from bytes equal to
// the ones it was last read from is kept with its index.
//
//===----------------------------------------------------------------------===//

#include "InstrProfBuilder.h"
#include "NameBlocks.h"
#include "llvm/ADT/STLExtras.h"
#include <cstring>

using namespace llvm;

namespace bbmap {

namespace {

/// Empties \p F, keeping the capacity of its vectors.
void reset(InstrProfFunction &F) {
  F.Name.clear();
  F.NameMD5 = 0;
  F.Hash = 0;
  F.Counts.clear();
  F.BitmapBytes.clear();
  F.ValueSites.clear();
  F.FunctionAddress.reset();
  F.Timestamp.reset();
  F.Offset = 0;
}

bool sameBytes(ArrayRef<uint8_t> A, ArrayRef<uint8_t> B) {
  return A.size() == B.size() &&
         (A.empty() || std::memcmp(A.data(), B.data(), A.size()) == 0);
}

} // namespace

InstrProfHeader &InstrProfBuilder::begin(uint64_t Offset,
                                         InstrProfFormat Format) {
  P.Offset = Offset;
  P.Header = InstrProfHeader();
  P.Header.Format = Format;
  P.BinaryIds.clear();
  P.Sections.clear();
  P.Summaries.clear();
  P.TemporalTraces.clear();
  P.TemporalTraceStreamSize = 0;
  NumFunctions = 0;
  for (NameSource &S : Sources)
    S.Current = false;
  return P.Header;
}

void InstrProfBuilder::addField(StringRef Name, uint64_t Offset,
                                uint64_t Value) {
  P.Header.Fields.push_back({Name.str(), Offset, Value});
}

void InstrProfBuilder::addSection(StringRef Name, uint64_t Offset,
                                  uint64_t Size,
                                  std::optional<uint64_t> Version) {
  P.Sections.push_back({Name.str(), Offset, Size, Version});
}

void InstrProfBuilder::addBinaryId(ArrayRef<uint8_t> Id) {
  P.BinaryIds.emplace_back(Id.begin(), Id.end());
}

Error InstrProfBuilder::readNames(ArrayRef<uint8_t> File, uint64_t Begin,
                                  uint64_t Size, NameList Which) {
  NameSource &Source = source(Which);
  ArrayRef<uint8_t> Bytes = File.slice(Begin, Size);
  Source.Current = true;
  if (Source.Bytes && sameBytes(*Source.Bytes, Bytes))
    return Error::success();
  std::vector<std::string> &Names = list(Which);
  Names.clear();
  NamesChanged = true;
  Source.Bytes.reset();
  if (Error E = readNameBlocks(
          File, Begin, Size,
          Which == NameList::Functions ? "names" : "vtable names", Names))
    return E;
  Source.Bytes = Bytes;
  return Error::success();
}

void InstrProfBuilder::addName(StringRef Name) {
  NameSource &Source = source(NameList::Functions);
  if (!Source.Current) {
    P.Names.clear();
    Source.Current = true;
  }
  // Names added one by one come from no single range of bytes.
  Source.Bytes.reset();
  P.Names.push_back(Name.str());
  NamesChanged = true;
}

InstrProfSummary &InstrProfBuilder::addSummary(bool ContextSensitive,
                                               uint64_t Offset) {
  InstrProfSummary &S = P.Summaries.emplace_back();
  S.ContextSensitive = ContextSensitive;
  S.Offset = Offset;
  return S;
}

InstrProfTemporalTrace &InstrProfBuilder::addTemporalTrace() {
  return P.TemporalTraces.emplace_back();
}

void InstrProfBuilder::reserveFunctions(size_t N) {
  P.Functions.reserve(NumFunctions + N);
}

InstrProfFunction &InstrProfBuilder::addFunction() {
  if (NumFunctions == P.Functions.size()) {
    ++NumFunctions;
    return P.Functions.emplace_back();
  }
  InstrProfFunction &F = P.Functions[NumFunctions++];
  reset(F);
  return F;
}

void InstrProfBuilder::dropStaleNames() {
  for (NameList Which : {NameList::Functions, NameList::VTables}) {
    NameSource &Source = source(Which);
    if (Source.Current)
      continue;
    Source.Bytes.reset();
    Source.Current = true;
    if (!list(Which).empty()) {
      list(Which).clear();
      NamesChanged = true;
    }
  }
}

void InstrProfBuilder::indexNames() {
  dropStaleNames();
  if (!NamesChanged)
    return;
  P.indexNames();
  NamesChanged = false;
}

StringRef InstrProfBuilder::nameOf(uint64_t MD5) {
  indexNames();
  return P.nameOf(MD5);
}

void InstrProfBuilder::finish() {
  P.Functions.resize(NumFunctions);
  llvm::stable_sort(P.Sections,
                    [](const InstrProfSection &A, const InstrProfSection &B) {
                      return A.Offset < B.Offset;
                    });
  indexNames();
  Consumer.consume(P);
}

} // namespace bbmap
