//===- Lookup.cpp - address look-up requests and results ------------------===//
//
// Parsing is a hand-written scan (look-up files hold millions of lines) of
// chunks cut at line ends, in parallel; look-ups prefetch a few requests
// ahead.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Object/Lookup.h"
#include "bbmap/Support/Parallel.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstring>
#include <numeric>

using namespace llvm;

namespace bbmap {

namespace {

/// How far ahead of the current request look-ups prefetch: the first step
/// this many requests ahead, the second half as many.
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

/// An address file, or stdin for "-".
static Expected<std::unique_ptr<MemoryBuffer>> readFile(StringRef File) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFileOrSTDIN(File);
  if (!Buf)
    return createFileError(File, Buf.getError());
  return std::move(*Buf);
}

/// The error of line \p LineNo of \p File.
static Error lineError(StringRef File, size_t LineNo, Error E) {
  return createFileError(File,
                         createStringError(inconvertibleErrorCode(),
                                           "line " + Twine(LineNo) + ": " +
                                               toString(std::move(E))));
}

Error readAddressRequests(ArrayRef<std::string> Texts, StringRef File,
                          function_ref<Error(StringRef)> OnAddress) {
  for (const std::string &Text : Texts)
    if (Error E = OnAddress(Text))
      return E;
  if (File.empty())
    return Error::success();
  Expected<std::unique_ptr<MemoryBuffer>> Buf = readFile(File);
  if (!Buf)
    return Buf.takeError();
  return forEachAddressLine((*Buf)->getBuffer(), File, OnAddress);
}

Error forEachAddressLine(StringRef Contents, StringRef File,
                         function_ref<Error(StringRef)> OnAddress) {
  size_t LineNo = 0;
  while (!Contents.empty()) {
    auto [Line, Rest] = Contents.split('\n');
    Contents = Rest;
    ++LineNo;
    Line = Line.trim();
    if (Line.empty() || Line.front() == '#')
      continue;
    if (Error E = OnAddress(Line))
      return lineError(File, LineNo, std::move(E));
  }
  return Error::success();
}

namespace {

/// What parsing one chunk of a look-up file found.
struct ParsedChunk {
  /// Where its requests go, and how many there are.
  LookupRequest *Requests = nullptr;
  size_t Count = 0;
  size_t Lines = 0;
  /// The first bad line: its number within the chunk (from 1) and text.
  size_t BadLine = 0;
  StringRef BadText;
};

bool isSpace(char C) { return C == ' ' || (C >= '\t' && C <= '\r'); }

/// The number of lines of \p Text (the last may have no line end).
size_t countLines(StringRef Text) {
  size_t Lines = Text.count('\n');
  return Lines + (!Text.empty() && Text.back() != '\n');
}

/// Parses the lines of \p Text, which ends at a line end or at the end of
/// the file, into Chunk.Requests (room for one request per line), up to
/// the first bad one.
void parseChunk(StringRef Text, ParsedChunk &Chunk) {
  const char *P = Text.begin(), *End = Text.end();
  while (P != End) {
    const char *EOL = static_cast<const char *>(std::memchr(P, '\n', End - P));
    const char *Next = EOL ? EOL + 1 : End;
    if (!EOL)
      EOL = End;
    ++Chunk.Lines;
    while (P != EOL && isSpace(*P))
      ++P;
    const char *Last = EOL;
    while (Last != P && isSpace(Last[-1]))
      --Last;
    StringRef Line(P, Last - P);
    P = Next;
    if (Line.empty() || Line.front() == '#')
      continue;
    std::optional<LookupRequest> R = parseRequest(Line);
    if (!R) {
      Chunk.BadLine = Chunk.Lines;
      Chunk.BadText = Line;
      return;
    }
    Chunk.Requests[Chunk.Count++] = *R;
  }
}

/// Cuts \p Text into about \p N pieces of at least \p MinBytes that end
/// at line ends.
std::vector<StringRef> cutAtLines(StringRef Text, size_t N, size_t MinBytes) {
  std::vector<StringRef> Pieces;
  size_t Size = std::max<size_t>({Text.size() / N, MinBytes, 1});
  while (!Text.empty()) {
    size_t Cut = Text.find('\n', std::min(Size, Text.size()) - 1);
    Cut = Cut == StringRef::npos ? Text.size() : Cut + 1;
    Pieces.push_back(Text.take_front(Cut));
    Text = Text.drop_front(Cut);
  }
  return Pieces;
}

} // namespace

Error readLookupRequests(ArrayRef<std::string> Texts, StringRef File,
                         std::vector<LookupRequest> &Requests,
                         unsigned Threads) {
  for (const std::string &Text : Texts) {
    Expected<LookupRequest> R = parseLookupRequest(Text);
    if (!R)
      return R.takeError();
    Requests.push_back(*R);
  }
  if (File.empty())
    return Error::success();
  Expected<std::unique_ptr<MemoryBuffer>> Buf = readFile(File);
  if (!Buf)
    return Buf.takeError();
  return parseLookupLines((*Buf)->getBuffer(), File, Requests, Threads);
}

Error parseLookupLines(StringRef Contents, StringRef File,
                       std::vector<LookupRequest> &Requests, unsigned Threads,
                       size_t MinChunkBytes) {
  std::vector<StringRef> Pieces =
      cutAtLines(Contents, 4 * threadCount(Threads), MinChunkBytes);
  // Room for a request per line; each chunk parses into its own part, and
  // the parts are then moved together.
  std::vector<size_t> Room(Pieces.size());
  forEachIndex(Pieces.size(), Threads,
               [&](size_t I) { Room[I] = countLines(Pieces[I]); });
  size_t Begin = Requests.size();
  Requests.resize(Begin + std::accumulate(Room.begin(), Room.end(), size_t(0)));
  std::vector<ParsedChunk> Chunks(Pieces.size());
  for (size_t I = 0, At = Begin; I < Pieces.size(); At += Room[I++])
    Chunks[I].Requests = Requests.data() + At;
  forEachIndex(Pieces.size(), Threads,
               [&](size_t I) { parseChunk(Pieces[I], Chunks[I]); });
  size_t LinesBefore = 0;
  LookupRequest *To = Requests.data() + Begin;
  for (const ParsedChunk &Chunk : Chunks) {
    if (Chunk.BadLine)
      return lineError(File, LinesBefore + Chunk.BadLine,
                       invalidAddress(Chunk.BadText));
    LinesBefore += Chunk.Lines;
    if (To != Chunk.Requests)
      std::memmove(To, Chunk.Requests, Chunk.Count * sizeof(LookupRequest));
    To += Chunk.Count;
  }
  Requests.resize(To - Requests.data());
  return Error::success();
}

size_t findAll(const AddressIndex &Index, ArrayRef<LookupRequest> Requests,
               uint32_t *Entries) {
  size_t Found = 0;
  for (size_t I = 0; I < Requests.size(); ++I) {
    if (I + PrefetchDistance < Requests.size())
      Index.prefetchBucket(Requests[I + PrefetchDistance].Address);
    if (I + PrefetchDistance / 2 < Requests.size())
      Index.prefetchBlocks(Requests[I + PrefetchDistance / 2].Address);
    Entries[I] = Index.find(Requests[I].Address, Requests[I].Side);
    Found += Entries[I] != AddressIndex::NotFound;
  }
  return Found;
}

} // namespace bbmap
