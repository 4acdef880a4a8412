//===- LookupPrinter.cpp - look-up results as text or JSON ----------------===//
//
// Text output formats numbers in place in an OutputBuffer (look-up runs
// print millions of lines); JSON goes through llvm::json::OStream.
//
//===----------------------------------------------------------------------===//

#include "LookupPrinter.h"
#include "bbmap/Support/OutputBuffer.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace bbmap {

namespace {

/// How far ahead of the current result printing prefetches: the first step
/// this many results ahead, the second half as many.
constexpr size_t PrefetchDistance = 16;

/// Prefetches what printing the results PrefetchDistance and half as many
/// entries after \p I will read.
void prefetchAhead(const AddressIndex &Index, ArrayRef<uint32_t> Entries,
                   size_t I) {
  if (I + PrefetchDistance < Entries.size() &&
      Entries[I + PrefetchDistance] != AddressIndex::NotFound)
    Index.prefetchRef(Entries[I + PrefetchDistance]);
  if (I + PrefetchDistance / 2 < Entries.size() &&
      Entries[I + PrefetchDistance / 2] != AddressIndex::NotFound)
    Index.prefetchName(Entries[I + PrefetchDistance / 2]);
}

class TextLookupPrinter : public LookupPrinter {
public:
  explicit TextLookupPrinter(raw_ostream &OS) : Out(OS) {}

  void beginFile(StringRef File) override {
    Out.append("# ");
    Out.append(File);
    Out.append(": address offset range id start end function\n");
  }

  void print(const AddressIndex &Index, ArrayRef<LookupRequest> Requests,
             ArrayRef<uint32_t> Entries) override {
    for (size_t I = 0; I < Requests.size(); ++I) {
      prefetchAhead(Index, Entries, I);
      printResult(Index, Requests[I].Address, Entries[I]);
    }
  }

  /// Hands the file's lines to the stream before any later diagnostic.
  void endFile() override { Out.flush(); }

private:
  /// Room for the address and every column but the function name.
  static constexpr size_t MaxColumns = 6 * OutputBuffer::MaxNumberSize + 8;

  void printResult(const AddressIndex &Index, uint64_t Address,
                   uint32_t Entry) {
    char *P = Out.reserve(MaxColumns);
    P = OutputBuffer::putHex(P, Address, /*UpperCase=*/false);
    if (Entry == AddressIndex::NotFound) {
      Out.commit(OutputBuffer::put(P, " - - - - - -\n"));
      return;
    }
    BlockMatch M = Index.match(Entry);
    P = OutputBuffer::put(P, " ");
    P = OutputBuffer::putHex(P, Address - M.BlockStart, /*UpperCase=*/false);
    P = OutputBuffer::put(P, " ");
    P = OutputBuffer::putDecimal(P, M.Range);
    P = OutputBuffer::put(P, " ");
    P = OutputBuffer::putDecimal(P, M.ID);
    P = OutputBuffer::put(P, " ");
    P = OutputBuffer::putHex(P, M.BlockStart, /*UpperCase=*/false);
    P = OutputBuffer::put(P, " ");
    P = OutputBuffer::putHex(P, M.BlockEnd, /*UpperCase=*/false);
    Out.commit(OutputBuffer::put(P, " "));
    Out.append(M.name().empty() ? "<?>" : M.name());
    Out.append("\n");
  }

  OutputBuffer Out;
};

class JSONLookupPrinter : public LookupPrinter {
public:
  JSONLookupPrinter(raw_ostream &OS, bool Pretty)
      : OS(OS), J(OS, Pretty ? 2 : 0) {
    J.arrayBegin();
  }
  ~JSONLookupPrinter() override {
    J.arrayEnd();
    OS << "\n";
  }

  void beginFile(StringRef File) override {
    J.objectBegin();
    J.attribute("File", File);
    J.attributeBegin("Lookups");
    J.arrayBegin();
  }

  void print(const AddressIndex &Index, ArrayRef<LookupRequest> Requests,
             ArrayRef<uint32_t> Entries) override {
    for (size_t I = 0; I < Requests.size(); ++I)
      J.object([&] { printResult(Index, Requests[I], Entries[I]); });
  }

  void endFile() override {
    J.arrayEnd();
    J.attributeEnd();
    J.objectEnd();
  }

private:
  void printResult(const AddressIndex &Index, const LookupRequest &R,
                   uint32_t Entry) {
    J.attribute("Address", R.Address);
    J.attribute("Side", R.Side == LookupSide::To ? "to" : "from");
    J.attribute("Found", Entry != AddressIndex::NotFound);
    if (Entry == AddressIndex::NotFound)
      return;
    BlockMatch M = Index.match(Entry);
    J.attribute("Function", M.name());
    J.attribute("FunctionAddress", M.function().address());
    J.attribute("Range", M.Range);
    J.attribute("RangeBase", M.function().Ranges[M.Range].BaseAddress);
    J.attribute("ID", M.ID);
    J.attribute("BlockStart", M.BlockStart);
    J.attribute("BlockEnd", M.BlockEnd);
    J.attribute("Offset", R.Address - M.BlockStart);
  }

  raw_ostream &OS;
  json::OStream J;
};

} // namespace

std::unique_ptr<LookupPrinter> createTextLookupPrinter(raw_ostream &OS) {
  return std::make_unique<TextLookupPrinter>(OS);
}

std::unique_ptr<LookupPrinter> createJSONLookupPrinter(raw_ostream &OS,
                                                       bool Pretty) {
  return std::make_unique<JSONLookupPrinter>(OS, Pretty);
}

} // namespace bbmap
