//===- Lookup.cpp - address look-up requests and results ------------------===//
//
// Parsing is a hand-written scan (look-up files hold millions of lines);
// look-ups run a chunk at a time with prefetching, and each chunk's results
// go to the caller's LookupPrinter.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Object/Lookup.h"
#include "bbmap/Support/Stopwatch.h"
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
