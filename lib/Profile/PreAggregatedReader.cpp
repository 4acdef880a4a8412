//===- lib/Profile/PreAggregatedReader.cpp - perf2bolt --pa input ---------===//
//
// One pass over the buffer that scans each field in place with hand-written
// hex and decimal loops: nothing is allocated per line except an event
// name. The number of lines, estimated from the start, sizes the vector of the
// first record kind seen, so a file of one kind rarely regrows it.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/PreAggregatedReader.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <limits>

using namespace llvm;
using namespace bbmap;

namespace {

/// perf2bolt reads counts as int64_t.
constexpr uint64_t MaxCount = std::numeric_limits<int64_t>::max();

bool isBlank(char C) { return C == ' ' || C == '\t'; }

/// A token as it appears in a message: quoted, escaped, and cut after 40
/// bytes so that a garbage line does not flood the diagnostic.
std::string quote(StringRef Token) {
  std::string S;
  raw_string_ostream OS(S);
  OS << '\'';
  printEscapedString(Token.take_front(40), OS);
  if (Token.size() > 40)
    OS << "...";
  OS << '\'';
  return S;
}

/// Where a location lies.
enum class Place : uint8_t { Binary, External, OtherBinary };

struct Location {
  uint64_t Address = 0;
  Place Where = Place::Binary;
};

/// Parses the buffer into the profile, one line at a time. Fields are
/// scanned in place: a field ends at a blank, at the LF, or at a CR that
/// comes before the LF (or the end of the buffer).
class Parser {
public:
  Parser(MemoryBufferRef Buffer, StringRef BinaryBuildID, BranchProfile &P)
      : FileName(Buffer.getBufferIdentifier()), BinaryBuildID(BinaryBuildID),
        P(P), Cur(Buffer.getBufferStart()), End(Buffer.getBufferEnd()) {}

  Error parse();

private:
  Error error(const Twine &Msg) const {
    return createStringError(std::make_error_code(std::errc::invalid_argument),
                             FileName + ":" + Twine(LineNo) + ": " + Msg);
  }

  /// At the LF, at a CR before the LF or the end, or at the end.
  bool atLineBreak() const {
    return Cur == End || *Cur == '\n' ||
           (*Cur == '\r' && (Cur + 1 == End || Cur[1] == '\n'));
  }
  bool atFieldEnd() const { return atLineBreak() || isBlank(*Cur); }
  void skipBlanks() {
    while (Cur != End && isBlank(*Cur))
      ++Cur;
  }
  /// Skips blanks; true if nothing but a line end follows.
  bool atLineEnd() {
    skipBlanks();
    return atLineBreak();
  }
  /// The field that starts at Start, which may be before Cur.
  StringRef fieldFrom(const char *Start) {
    Cur = Start;
    while (!atFieldEnd())
      ++Cur;
    return StringRef(Start, Cur - Start);
  }

  Error parseLine();
  bool scanHex(uint64_t &Value, bool &TooLong);
  Error parseLocation(const char *What, Location &L);
  Error parseCount(const char *What, uint64_t &Value);
  Error expectEnd(const char *After);
  Error parseSample();
  Error parseTrace(TraceKind Kind);

  StringRef FileName;
  StringRef BinaryBuildID;
  BranchProfile &P;
  const char *Cur;
  const char *End;
  uint64_t LineNo = 1;
  bool Reserved = false;
};

/// Scans hex digits at Cur into Value; TooLong is set if they do not fit
/// in 64 bits. Returns false if there are none.
bool Parser::scanHex(uint64_t &Value, bool &TooLong) {
  const char *Start = Cur;
  Value = 0;
  TooLong = false;
  for (; Cur != End; ++Cur) {
    unsigned Digit = hexDigitValue(*Cur);
    if (Digit == -1U)
      break;
    TooLong |= (Value >> 60) != 0;
    Value = Value << 4 | Digit;
  }
  return Cur != Start;
}

Error Parser::parseLocation(const char *What, Location &L) {
  if (atLineEnd())
    return error(Twine("missing ") + What);
  const char *Start = Cur;
  L.Where = Place::Binary;
  if (*Cur == 'X' && Cur + 1 != End && Cur[1] == ':') {
    L.Where = Place::External;
    Cur += 2;
  }
  uint64_t Value;
  bool TooLong;
  bool Found = scanHex(Value, TooLong);
  if (L.Where == Place::Binary && Cur != End && *Cur == ':') {
    // What was scanned is a build ID; the offset follows.
    if (!Found)
      return error(Twine("expected build ID or X before ':' in ") + What +
                   ", found " + quote(fieldFrom(Start)));
    if (!BinaryBuildID.empty() &&
        !StringRef(Start, Cur - Start).equals_insensitive(BinaryBuildID))
      L.Where = Place::OtherBinary;
    ++Cur;
    Found = scanHex(Value, TooLong);
  }
  if (!Found || !atFieldEnd())
    return error(Twine("expected hexadecimal ") + What + ", found " +
                 quote(fieldFrom(Start)));
  if (TooLong)
    return error(Twine(What) + " " + quote(fieldFrom(Start)) +
                 " out of range (more than 64 bits)");
  L.Address = Value;
  return Error::success();
}

Error Parser::parseCount(const char *What, uint64_t &Value) {
  if (atLineEnd())
    return error(Twine("missing ") + What);
  const char *Start = Cur;
  auto OutOfRange = [&] {
    return error(Twine(What) + " " + quote(fieldFrom(Start)) +
                 " out of range (0 to 2^63-1)");
  };
  // A negative count is well formed, only out of range.
  bool Negative = *Cur == '-';
  Cur += Negative;
  const char *Digits = Cur;
  uint64_t V = 0;
  for (; Cur != End && isDigit(*Cur); ++Cur)
    V = V * 10 + (*Cur - '0');
  size_t Length = Cur - Digits;
  if (Length == 0 || !atFieldEnd())
    return error(Twine("expected decimal ") + What + ", found " +
                 quote(fieldFrom(Start)));
  // 19 digits cannot wrap around 2^64; more are out of range.
  if (Negative || Length > 19 || V > MaxCount)
    return OutOfRange();
  Value = V;
  return Error::success();
}

Error Parser::expectEnd(const char *After) {
  if (!atLineEnd())
    return error(Twine("unexpected field ") + quote(fieldFrom(Cur)) +
                 " after " + After);
  return Error::success();
}

Error Parser::parseSample() {
  Location L;
  Sample S;
  if (Error E = parseLocation("address", L))
    return E;
  if (Error E = parseCount("count", S.Count))
    return E;
  if (Error E = expectEnd("count"))
    return E;
  S.Address = L.Address;
  if (L.Where == Place::OtherBinary)
    ++P.Skipped.OtherBinary;
  else if (L.Where == Place::External)
    ++P.Skipped.Outside;
  else
    P.Samples.push_back(S);
  return Error::success();
}

Error Parser::parseTrace(TraceKind Kind) {
  P.HasBranches = true;
  Trace T;
  T.Kind = Kind;
  // The locations of the line, in order, and the Trace field each fills.
  Location Locs[3];
  unsigned NumLocs = 0;
  auto Loc = [&](const char *What) {
    return parseLocation(What, Locs[NumLocs++]);
  };
  bool HasBranch = T.hasBranch();
  if (HasBranch) {
    if (Error E = Loc("branch source"))
      return E;
    if (Error E = Loc("branch target"))
      return E;
  } else if (Error E = Loc("fall-through start")) {
    return E;
  }
  if (Kind != TraceKind::Branch)
    if (Error E = Loc("fall-through end"))
      return E;
  if (Error E = parseCount("count", T.Count))
    return E;
  const char *Last = "count";
  if (Kind == TraceKind::Branch) {
    if (Error E = parseCount("mispredictions", T.Mispreds))
      return E;
    Last = "mispredictions";
  }
  if (Error E = expectEnd(Last))
    return E;

  for (unsigned I = 0; I != NumLocs; ++I)
    if (Locs[I].Where == Place::OtherBinary) {
      ++P.Skipped.OtherBinary;
      return Error::success();
    }
  unsigned I = 0;
  if (HasBranch) {
    T.From = Locs[I].Address;
    T.FromExternal = Locs[I++].Where == Place::External;
  }
  T.To = Locs[I].Address;
  T.ToExternal = Locs[I++].Where == Place::External;
  if (I != NumLocs) {
    // A run stays in one object: an external end makes the run external.
    T.FallthroughEnd = Locs[I].Address;
    T.ToExternal |= Locs[I].Where == Place::External;
  }
  if (T.ToExternal && (!HasBranch || T.FromExternal))
    ++P.Skipped.Outside;
  else
    P.Traces.push_back(T);
  return Error::success();
}

Error Parser::parseLine() {
  if (atLineEnd())
    return Error::success();
  const char *Start = Cur++;
  if (atFieldEnd()) {
    switch (*Start) {
    case 'E': {
      if (atLineEnd())
        return error("missing event name");
      StringRef Event = fieldFrom(Cur);
      if (Error E = expectEnd("event name"))
        return E;
      P.Events.push_back(Event.str());
      return Error::success();
    }
    case 'S':
      return parseSample();
    case 'T':
      return parseTrace(TraceKind::BranchAndFallthrough);
    case 'R':
      return parseTrace(TraceKind::Return);
    case 'B':
      return parseTrace(TraceKind::Branch);
    case 'F':
      return parseTrace(TraceKind::Fallthrough);
    case 'f':
      return parseTrace(TraceKind::ExternalOrigin);
    case 'r':
      return parseTrace(TraceKind::ExternalReturn);
    }
  }
  return error("expected T, R, S, E, B, F, f or r, found " +
               quote(fieldFrom(Start)));
}

/// The number of lines of Text, estimated from its first 64 KiB with an
/// eighth added, so that the vectors sized by it rarely grow; at most one
/// per 16 bytes (a short record line), whatever the first 64 KiB hold.
size_t estimateLines(StringRef Text) {
  StringRef Head = Text.take_front(64 * 1024);
  size_t HeadLines = Head.count('\n') + 1;
  if (Head.size() == Text.size())
    return HeadLines;
  double Estimate = double(Text.size()) / Head.size() * HeadLines * 1.125;
  return std::min(size_t(Estimate), Text.size() / 16);
}

Error Parser::parse() {
  // Files hold one kind of record in practice (IP samples or branches):
  // the first kind seen gets room for every line, the other grows.
  size_t Lines = estimateLines(StringRef(Cur, End - Cur));
  for (; Cur != End; ++LineNo) {
    if (Error E = parseLine())
      return E;
    if (!Reserved && (!P.Samples.empty() || !P.Traces.empty())) {
      if (P.Samples.empty())
        P.Traces.reserve(Lines);
      else
        P.Samples.reserve(Lines);
      Reserved = true;
    }
    // parseLine stops at the line end: CR LF, LF, CR at the end, or the end.
    Cur += Cur != End && *Cur == '\r';
    Cur += Cur != End;
  }
  return Error::success();
}

} // namespace

Expected<BranchProfile> PreAggregatedReader::read(MemoryBufferRef Buffer,
                                                  StringRef BinaryBuildID) {
  BranchProfile P;
  if (Error E = Parser(Buffer, BinaryBuildID, P).parse())
    return std::move(E);
  return std::move(P);
}
