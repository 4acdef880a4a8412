//===- dumper/Lookup.cpp - address look-up requests and results -----------===//
//
// Parsing is a hand-written scan (look-up files hold millions of lines) and
// text output formats numbers in place in an OutputBuffer; JSON goes through
// llvm::json::OStream.
//
//===----------------------------------------------------------------------===//

#include "Lookup.h"
#include "OutputBuffer.h"
#include "Stopwatch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace bbmap {

namespace {

/// How far ahead of the current request look-ups and printing prefetch: the
/// first step this many requests ahead, the second half as many.
constexpr size_t PrefetchDistance = 16;

int hexDigit(char C) {
  if (C >= '0' && C <= '9')
    return C - '0';
  if (C >= 'a' && C <= 'f')
    return C - 'a' + 10;
  if (C >= 'A' && C <= 'F')
    return C - 'A' + 10;
  return -1;
}

/// Parses "[0x]HEX[:from|:to]" with nothing else around it.
std::optional<LookupRequest> parseRequest(StringRef Text) {
  LookupRequest R;
  if (Text.ends_with(":to")) {
    R.Side = LookupSide::To;
    Text = Text.drop_back(3);
  } else if (Text.ends_with(":from")) {
    Text = Text.drop_back(5);
  }
  if (Text.starts_with("0x") || Text.starts_with("0X"))
    Text = Text.drop_front(2);
  if (Text.empty() || Text.size() > 16)
    return std::nullopt;
  for (char C : Text) {
    int D = hexDigit(C);
    if (D < 0)
      return std::nullopt;
    R.Address = R.Address << 4 | D;
  }
  return R;
}

Error invalidAddress(StringRef Text) {
  return createStringError(inconvertibleErrorCode(),
                           "invalid address '" + Text +
                               "': expected [0x]HEX[:from|:to]");
}

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

Expected<LookupRequest> parseLookupRequest(StringRef Text) {
  if (std::optional<LookupRequest> R = parseRequest(Text.trim()))
    return *R;
  return invalidAddress(Text);
}

Error readAddressRequests(ArrayRef<std::string> Texts, StringRef File,
                          function_ref<Error(StringRef)> OnAddress) {
  for (const std::string &Text : Texts)
    if (Error E = OnAddress(Text))
      return E;
  if (File.empty())
    return Error::success();
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFileOrSTDIN(File);
  if (!Buf)
    return createFileError(File, Buf.getError());
  StringRef Contents = (*Buf)->getBuffer();
  size_t LineNo = 0;
  while (!Contents.empty()) {
    auto [Line, Rest] = Contents.split('\n');
    Contents = Rest;
    ++LineNo;
    Line = Line.trim();
    if (Line.empty() || Line.front() == '#')
      continue;
    if (Error E = OnAddress(Line))
      return createFileError(File,
                             createStringError(inconvertibleErrorCode(),
                                               "line " + Twine(LineNo) + ": " +
                                                   toString(std::move(E))));
  }
  return Error::success();
}

LookupPrinter::~LookupPrinter() = default;

std::unique_ptr<LookupPrinter> createTextLookupPrinter(raw_ostream &OS) {
  return std::make_unique<TextLookupPrinter>(OS);
}

std::unique_ptr<LookupPrinter> createJSONLookupPrinter(raw_ostream &OS,
                                                       bool Pretty) {
  return std::make_unique<JSONLookupPrinter>(OS, Pretty);
}

LookupStats lookupAll(const AddressIndex &Index,
                      ArrayRef<LookupRequest> Requests, StringRef File,
                      LookupPrinter &Printer) {
  constexpr size_t ChunkSize = 1 << 16;
  LookupStats Stats;
  std::vector<uint32_t> Entries(std::min(Requests.size(), ChunkSize));
  Printer.beginFile(File);
  for (size_t Begin = 0; Begin < Requests.size(); Begin += ChunkSize) {
    ArrayRef<LookupRequest> Chunk = Requests.slice(Begin).take_front(ChunkSize);
    Stopwatch Timer;
    for (size_t I = 0; I < Chunk.size(); ++I) {
      if (I + PrefetchDistance < Chunk.size())
        Index.prefetchBucket(Chunk[I + PrefetchDistance].Address);
      if (I + PrefetchDistance / 2 < Chunk.size())
        Index.prefetchBlocks(Chunk[I + PrefetchDistance / 2].Address);
      Entries[I] = Index.find(Chunk[I].Address, Chunk[I].Side);
      Stats.Found += Entries[I] != AddressIndex::NotFound;
    }
    Stats.LookupSeconds += Timer.lap();
    Printer.print(Index, Chunk, ArrayRef(Entries).take_front(Chunk.size()));
  }
  Printer.endFile();
  return Stats;
}

} // namespace bbmap
