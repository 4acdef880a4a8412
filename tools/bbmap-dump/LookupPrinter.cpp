//===- LookupPrinter.cpp - look-up results as text or JSON ----------------===//
//
// Both styles format in place into a text (OutputBuffer, JSONWriter). A
// result reads only the index entry the look-up has just read, the small
// tables of functions and range bases, and the function's name, which
// printing prefetches a few results ahead.
//
//===----------------------------------------------------------------------===//

#include "LookupPrinter.h"
#include "bbmap/Support/JSONWriter.h"

using namespace llvm;

namespace bbmap {

ResultPrinter::~ResultPrinter() = default;
LookupPrinter::~LookupPrinter() = default;

namespace {

/// How far ahead of the current result printing prefetches the name.
constexpr size_t PrefetchDistance = 8;

class TextResultPrinter : public ResultPrinter {
public:
  explicit TextResultPrinter(TextPiece &Text) : Out(Text) {}

  void print(const AddressIndex &Index, ArrayRef<LookupRequest> Requests,
             ArrayRef<uint32_t> Entries) override {
    for (size_t I = 0; I < Requests.size(); ++I) {
      if (I + PrefetchDistance < Entries.size() &&
          Entries[I + PrefetchDistance] != AddressIndex::NotFound)
        Index.prefetchName(Entries[I + PrefetchDistance]);
      printResult(Index, Requests[I].Address, Entries[I]);
    }
  }

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
    uint64_t Start = Index.blockStart(Entry);
    P = OutputBuffer::put(P, " ");
    P = OutputBuffer::putHex(P, Address - Start, /*UpperCase=*/false);
    P = OutputBuffer::put(P, " ");
    P = OutputBuffer::putDecimal(P, Index.rangeOf(Entry));
    P = OutputBuffer::put(P, " ");
    P = OutputBuffer::putDecimal(P, Index.idOf(Entry));
    P = OutputBuffer::put(P, " ");
    P = OutputBuffer::putHex(P, Start, /*UpperCase=*/false);
    P = OutputBuffer::put(P, " ");
    P = OutputBuffer::putHex(P, Index.blockEnd(Entry), /*UpperCase=*/false);
    Out.commit(OutputBuffer::put(P, " "));
    StringRef Name = Index.nameOf(Entry);
    Out.append(Name.empty() ? "<?>" : Name);
    Out.append("\n");
  }

  OutputBuffer Out;
};

class TextLookupPrinter : public LookupPrinter {
public:
  explicit TextLookupPrinter(raw_ostream &OS) : OS(OS) {}

  void beginFile(StringRef File) override {
    OS << "# " << File << ": address offset range id start end function\n";
    OS.flush();
  }
  ResultPrinterFactory forkResults(bool) const override {
    return [](TextPiece &Text) {
      return std::make_unique<TextResultPrinter>(Text);
    };
  }
  void endFile() override {}

private:
  raw_ostream &OS;
};

class JSONResultPrinter : public ResultPrinter {
public:
  JSONResultPrinter(TextPiece &Text, bool Pretty, unsigned Depth,
                    bool HasElements)
      : W(Text, Pretty, Depth, HasElements) {}

  void print(const AddressIndex &Index, ArrayRef<LookupRequest> Requests,
             ArrayRef<uint32_t> Entries) override {
    for (size_t I = 0; I < Requests.size(); ++I) {
      if (I + PrefetchDistance < Entries.size() &&
          Entries[I + PrefetchDistance] != AddressIndex::NotFound)
        Index.prefetchName(Entries[I + PrefetchDistance]);
      W.beginObject();
      printResult(Index, Requests[I], Entries[I]);
      W.endObject();
    }
  }

private:
  void printResult(const AddressIndex &Index, const LookupRequest &R,
                   uint32_t Entry) {
    W.number("Address", R.Address);
    W.string("Side", R.Side == LookupSide::To ? "to" : "from");
    W.boolean("Found", Entry != AddressIndex::NotFound);
    if (Entry == AddressIndex::NotFound)
      return;
    uint64_t Start = Index.blockStart(Entry);
    W.string("Function", Index.nameOf(Entry));
    W.number("FunctionAddress", Index.functionAddressOf(Entry));
    W.number("Range", Index.rangeOf(Entry));
    W.number("RangeBase", Index.rangeBaseOf(Entry));
    W.number("ID", Index.idOf(Entry));
    W.number("BlockStart", Start);
    W.number("BlockEnd", Index.blockEnd(Entry));
    W.number("Offset", R.Address - Start);
  }

  JSONWriter W;
};

class JSONLookupPrinter : public LookupPrinter {
public:
  JSONLookupPrinter(raw_ostream &OS, bool Pretty)
      : OS(OS), W(OS, Pretty), Pretty(Pretty) {
    W.beginArray();
  }
  ~JSONLookupPrinter() override {
    W.endArray();
    W.flush();
    OS << "\n";
    OS.flush();
  }

  void beginFile(StringRef File) override {
    W.beginObject();
    W.string("File", File);
    W.beginArray("Lookups");
    W.flush();
  }
  ResultPrinterFactory forkResults(bool First) const override {
    return [Pretty = Pretty, Depth = W.depth(), First](TextPiece &Text) {
      return std::make_unique<JSONResultPrinter>(Text, Pretty, Depth, !First);
    };
  }
  void resultsPrintedElsewhere() override { W.setHasElements(); }
  void endFile() override {
    W.endArray();
    W.endObject();
    W.flush();
  }

private:
  raw_ostream &OS;
  JSONWriter W;
  bool Pretty;
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
