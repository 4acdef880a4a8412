//===- fuzz-instrprof-indexed.cpp - fuzz the indexed profile decoder ------===//
//
// libFuzzer target for decodeIndexedInstrProfile. A rejected input must
// give a DecodeError at an offset within the file. An accepted one must
// keep its promises: every section lies within the file, every name is
// found through the hash table's buckets by LLVM's own OnDiskChainedHashTable
// (with an info trait of this file) at the entry the decoder read first for
// it, and every printer style (llvm-profdata show text of LLVM 14, 19 and
// 22, JSON) prints it.
//
//===----------------------------------------------------------------------===//

#include "InstrProfPrinter.h"
#include "bbmap/InstrProf/IndexedInstrProfDecoder.h"
#include "bbmap/Support/ByteReader.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/OnDiskHashTable.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

using namespace llvm;
using namespace bbmap;

namespace {

void check(bool Condition) {
  if (!Condition)
    abort();
}

/// The indexed profile's hash table entries as OnDiskChainedHashTable sees
/// them: a name key, u64 key and data lengths, the data's address as value.
class EntryTrait {
public:
  using internal_key_type = StringRef;
  using external_key_type = StringRef;
  using data_type = const unsigned char *;
  using hash_value_type = uint64_t;
  using offset_type = uint64_t;

  static bool EqualKey(StringRef A, StringRef B) { return A == B; }
  static StringRef GetInternalKey(StringRef K) { return K; }
  static StringRef GetExternalKey(StringRef K) { return K; }
  static hash_value_type ComputeHash(StringRef K) { return MD5Hash(K); }
  static std::pair<offset_type, offset_type>
  ReadKeyDataLength(const unsigned char *&D) {
    offset_type Key =
        support::endian::readNext<uint64_t, endianness::little>(D);
    offset_type Data =
        support::endian::readNext<uint64_t, endianness::little>(D);
    return {Key, Data};
  }
  StringRef ReadKey(const unsigned char *D, offset_type N) {
    return StringRef(reinterpret_cast<const char *>(D), N);
  }
  data_type ReadData(StringRef, const unsigned char *D, offset_type) {
    return D;
  }
};

/// Looks every name up through the buckets, as clang's PGO use does.
void checkLookups(ArrayRef<uint8_t> Bytes, const InstrProfile &P) {
  uint64_t HashOffset = *P.Header.field("HashOffset");
  // OnDiskChainedHashTable needs its bucket array aligned.
  if (HashOffset % 8)
    return;
  std::unique_ptr<OnDiskChainedHashTable<EntryTrait>> Table(
      OnDiskChainedHashTable<EntryTrait>::Create(Bytes.data() + HashOffset,
                                                 Bytes.data()));
  std::map<std::string, uint64_t> FirstEntry;
  for (const InstrProfFunction &F : P.Functions)
    FirstEntry.emplace(F.Name, F.Offset);
  for (const auto &[Name, Offset] : FirstEntry) {
    auto It = Table->find(Name);
    check(It != Table->end());
    uint64_t DataOffset = *It - Bytes.data();
    check(DataOffset == Offset + 24 + Name.size());
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // A copy at an 8-byte aligned address, as a mapped file would be.
  std::vector<uint64_t> Storage(Size / 8 + 1);
  std::memcpy(Storage.data(), Data, Size);
  ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(Storage.data()),
                          Size);
  Expected<InstrProfileFile> F = decodeIndexedInstrProfile(Bytes);
  if (!F) {
    handleAllErrors(F.takeError(),
                    [&](const DecodeError &E) { check(E.offset() <= Size); });
    return 0;
  }
  check(F->Profiles.size() == 1);
  const InstrProfile &P = F->Profiles[0];
  for (const InstrProfSection &S : P.Sections)
    check(S.Offset <= Size && S.Size <= Size - S.Offset);
  for (const InstrProfFunction &Fn : P.Functions)
    check(Fn.Offset < Size && Fn.Counts.size() <= Size / 8);
  checkLookups(Bytes, P);

  auto Replay = [&](InstrProfConsumer &C) {
    C.consume(P);
    return Error::success();
  };
  for (InstrProfTextStyle Style :
       {InstrProfTextStyle::LLVM14, InstrProfTextStyle::LLVM19,
        InstrProfTextStyle::LLVM22}) {
    InstrProfPrintOptions O;
    O.Style = Style;
    O.Counts = O.ICTargets = O.VTables = O.MemOPSizes = O.ShowCS = true;
    std::unique_ptr<InstrProfPrinter> Printer =
        createInstrProfPrinter(nulls(), O);
    cantFail(Printer->printFile("fuzz", Replay));
    Printer->finish();
  }
  InstrProfPrintOptions O;
  O.JSON = true;
  std::unique_ptr<InstrProfPrinter> Printer =
      createInstrProfPrinter(nulls(), O);
  cantFail(Printer->printFile("fuzz", Replay));
  Printer->finish();
  return 0;
}
