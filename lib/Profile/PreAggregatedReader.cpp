//===- lib/Profile/PreAggregatedReader.cpp - perf2bolt --pa input ---------===//
//
// A single pass over the buffer, one line at a time, with hand-written hex
// and decimal scanning over StringRefs: nothing is allocated per line
// except an event name. The record vectors are sized by a first pass that
// counts the lines of each kind, so they never grow while parsing.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/PreAggregatedReader.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>
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

/// Parses one line at a time into the profile.
class LineParser {
public:
  LineParser(StringRef FileName, StringRef BinaryBuildID, BranchProfile &P)
      : FileName(FileName), BinaryBuildID(BinaryBuildID), P(P) {}

  Error parse(StringRef Line, uint64_t LineNo);

private:
  Error error(const Twine &Msg) const {
    return createStringError(std::make_error_code(std::errc::invalid_argument),
                             FileName + ":" + Twine(LineNo) + ": " + Msg);
  }

  /// The next blank-separated field, or an empty one at the end of the line.
  StringRef next() {
    while (Cur != End && isBlank(*Cur))
      ++Cur;
    const char *Start = Cur;
    while (Cur != End && !isBlank(*Cur))
      ++Cur;
    return StringRef(Start, Cur - Start);
  }

  Error parseLocation(const char *What, Location &L);
  Error parseCount(const char *What, uint64_t &Value);
  Error expectEnd(const char *After);
  Error parseSample();
  Error parseTrace(TraceKind Kind);

  StringRef FileName;
  StringRef BinaryBuildID;
  BranchProfile &P;
  const char *Cur = nullptr;
  const char *End = nullptr;
  uint64_t LineNo = 0;
};

Error LineParser::parseLocation(const char *What, Location &L) {
  StringRef Field = next();
  if (Field.empty())
    return error(Twine("missing ") + What);
  StringRef Hex = Field;
  L.Where = Place::Binary;
  if (size_t Colon = Field.find(':'); Colon != StringRef::npos) {
    StringRef BuildID = Field.take_front(Colon);
    Hex = Field.drop_front(Colon + 1);
    if (BuildID == "X")
      L.Where = Place::External;
    else if (BuildID.empty() || !all_of(BuildID, isHexDigit))
      return error(Twine("expected build ID or X before ':' in ") + What +
                   ", found " + quote(Field));
    else if (!BinaryBuildID.empty() &&
             !BuildID.equals_insensitive(BinaryBuildID))
      L.Where = Place::OtherBinary;
  }
  if (Hex.empty())
    return error(Twine("expected hexadecimal ") + What + ", found " +
                 quote(Field));
  uint64_t Value = 0;
  for (char C : Hex) {
    unsigned Digit = hexDigitValue(C);
    if (Digit == -1U)
      return error(Twine("expected hexadecimal ") + What + ", found " +
                   quote(Field));
    if (Value >> 60)
      return error(Twine(What) + " " + quote(Field) +
                   " out of range (more than 64 bits)");
    Value = Value << 4 | Digit;
  }
  L.Address = Value;
  return Error::success();
}

Error LineParser::parseCount(const char *What, uint64_t &Value) {
  StringRef Field = next();
  if (Field.empty())
    return error(Twine("missing ") + What);
  auto OutOfRange = [&] {
    return error(Twine(What) + " " + quote(Field) +
                 " out of range (0 to 2^63-1)");
  };
  // A negative count is well formed, only out of range.
  bool Negative = Field.size() > 1 && Field.front() == '-';
  uint64_t V = 0;
  for (char C : Field.drop_front(Negative)) {
    if (!isDigit(C))
      return error(Twine("expected decimal ") + What + ", found " +
                   quote(Field));
    unsigned Digit = C - '0';
    if (V > (MaxCount - Digit) / 10)
      return OutOfRange();
    V = V * 10 + Digit;
  }
  if (Negative)
    return OutOfRange();
  Value = V;
  return Error::success();
}

Error LineParser::expectEnd(const char *After) {
  StringRef Field = next();
  if (!Field.empty())
    return error(Twine("unexpected field ") + quote(Field) + " after " + After);
  return Error::success();
}

Error LineParser::parseSample() {
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

Error LineParser::parseTrace(TraceKind Kind) {
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

Error LineParser::parse(StringRef Line, uint64_t N) {
  Cur = Line.begin();
  End = Line.end();
  LineNo = N;
  if (Cur != End && End[-1] == '\r')
    --End;
  StringRef Type = next();
  if (Type.empty())
    return Error::success();
  if (Type.size() == 1) {
    switch (Type[0]) {
    case 'E': {
      StringRef Event = next();
      if (Event.empty())
        return error("missing event name");
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
  return error("expected T, R, S, E, B, F, f or r, found " + quote(Type));
}

/// Calls F on every line of Text, without its LF; stops at the first error.
template <typename Fn> Error forEachLine(StringRef Text, Fn F) {
  const char *Cur = Text.begin(), *End = Text.end();
  for (uint64_t LineNo = 1; Cur != End; ++LineNo) {
    const char *NL =
        static_cast<const char *>(std::memchr(Cur, '\n', End - Cur));
    const char *LineEnd = NL ? NL : End;
    if (Error E = F(StringRef(Cur, LineEnd - Cur), LineNo))
      return E;
    Cur = NL ? NL + 1 : End;
  }
  return Error::success();
}

/// Reserves room for the records Text can hold: one sample per line that
/// starts with S, one trace per other non-blank line.
void reserveRecords(StringRef Text, BranchProfile &P) {
  size_t Samples = 0, Others = 0;
  cantFail(forEachLine(Text, [&](StringRef Line, uint64_t) {
    size_t First = Line.find_first_not_of(" \t\r");
    if (First != StringRef::npos)
      ++(Line[First] == 'S' ? Samples : Others);
    return Error::success();
  }));
  P.Samples.reserve(Samples);
  P.Traces.reserve(Others);
}

} // namespace

Expected<BranchProfile> PreAggregatedReader::read(MemoryBufferRef Buffer,
                                                  StringRef BinaryBuildID) {
  BranchProfile P;
  reserveRecords(Buffer.getBuffer(), P);
  LineParser Parser(Buffer.getBufferIdentifier(), BinaryBuildID, P);
  if (Error E =
          forEachLine(Buffer.getBuffer(), [&](StringRef Line, uint64_t LineNo) {
            return Parser.parse(Line, LineNo);
          }))
    return std::move(E);
  return std::move(P);
}
