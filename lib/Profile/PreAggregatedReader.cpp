//===- PreAggregatedReader.cpp - perf2bolt --pa input ---------------------===//
//
// One pass over the buffer that scans each field in place with hand-written
// hex and decimal loops: nothing is allocated per line except an event
// name. Identical records are summed as they are read (RecordTable: a hash
// table from record to its place in the profile), so memory grows with the
// number of distinct records, not with the file. A large file is cut at line
// breaks into a part per thread, parsed at once and merged in file order, so
// the result is the same for any number of parts.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/PreAggregatedReader.h"
#include "ProfileText.h"
#include "bbmap/Profile/PerfAggregator.h"
#include "bbmap/Profile/RecordTable.h"
#include "bbmap/Support/Parallel.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <limits>
#include <memory>

using namespace llvm;
using namespace bbmap;

namespace {

bool isBlank(char C) { return C == ' ' || C == '\t'; }

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
  /// Parses \p Text, a whole number of lines of \p FileName starting with
  /// line \p FirstLine.
  Parser(StringRef FileName, StringRef BinaryBuildID, StringRef Text,
         uint64_t FirstLine)
      : FileName(FileName), BinaryBuildID(BinaryBuildID), Cur(Text.begin()),
        End(Text.end()), LineNo(FirstLine) {}

  Error parse();
  /// Adds the records of the part of the file that follows this one.
  Error merge(const Parser &Next);
  BranchProfile takeProfile() { return std::move(P); }

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
  Error addTrace(const Trace &T);
  Error addSample(const Sample &S);
  Error addCount(uint64_t &Total, uint64_t Count, const char *What);

  StringRef FileName;
  StringRef BinaryBuildID;
  BranchProfile P;
  const char *Cur;
  const char *End;
  uint64_t LineNo;
  /// Where each distinct record is in P.Traces or P.Samples.
  RecordTable Records;
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
        !sameBuildID(StringRef(Start, Cur - Start), BinaryBuildID))
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
  StringRef Field = fieldFrom(Cur);
  CountField Read = readCount(Field, Value);
  if (Read != CountField::Valid)
    return error(countProblem(Read, What, Field));
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
    return addSample(S);
  return Error::success();
}

Error Parser::addCount(uint64_t &Total, uint64_t Count, const char *What) {
  if (Count > MaxCount - Total)
    return error(Twine("the ") + What + " of this record, summed over the " +
                 "file, exceeds 2^63-1");
  Total += Count;
  return Error::success();
}

Error Parser::addSample(const Sample &S) {
  auto [Sum, New] = Records.addSample(P, S);
  if (New)
    return Error::success();
  return addCount(Sum.Count, S.Count, "count");
}

Error Parser::addTrace(const Trace &T) {
  auto [Sum, New] = Records.addTrace(P, T);
  if (New)
    return Error::success();
  if (Error E = addCount(Sum.Count, T.Count, "count"))
    return E;
  return addCount(Sum.Mispreds, T.Mispreds, "mispredictions");
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
  if (T.ToExternal && (!HasBranch || T.FromExternal)) {
    ++P.Skipped.Outside;
    return Error::success();
  }
  return addTrace(T);
}

Error Parser::parseLine() {
  if (atLineEnd())
    return Error::success();
  ++P.Read.Lines;
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

Error Parser::parse() {
  for (; Cur != End; ++LineNo) {
    if (Error E = parseLine())
      return E;
    // parseLine stops at the line end: CR LF, LF, CR at the end, or the end.
    Cur += Cur != End && *Cur == '\r';
    Cur += Cur != End;
  }
  return Error::success();
}

Error Parser::merge(const Parser &Next) {
  for (const Trace &T : Next.P.Traces)
    if (Error E = addTrace(T))
      return E;
  for (const Sample &S : Next.P.Samples)
    if (Error E = addSample(S))
      return E;
  llvm::append_range(P.Events, Next.P.Events);
  P.HasBranches |= Next.P.HasBranches;
  P.Skipped.OtherBinary += Next.P.Skipped.OtherBinary;
  P.Skipped.Outside += Next.P.Skipped.Outside;
  P.Read.add(Next.P.Read);
  return Error::success();
}

/// Below this many bytes a file is read in one part.
constexpr size_t MinPartSize = 4 << 20;

/// \p Text cut at line breaks into one part per thread of \p Threads (fewer
/// for a small file).
std::vector<StringRef> splitAtLines(StringRef Text, unsigned Threads) {
  size_t Count =
      std::clamp<size_t>(Text.size() / MinPartSize, 1, threadCount(Threads));
  std::vector<StringRef> Parts;
  while (Parts.size() + 1 < Count) {
    size_t Cut = Text.find('\n', Text.size() / (Count - Parts.size()));
    if (Cut == StringRef::npos)
      break;
    Parts.push_back(Text.take_front(Cut + 1));
    Text = Text.drop_front(Cut + 1);
  }
  Parts.push_back(Text);
  return Parts;
}

} // namespace

Expected<BranchProfile> PreAggregatedReader::read(MemoryBufferRef Buffer,
                                                  StringRef BinaryBuildID,
                                                  unsigned Threads) {
  StringRef File = Buffer.getBufferIdentifier();
  std::vector<StringRef> Parts = splitAtLines(Buffer.getBuffer(), Threads);
  if (Parts.size() == 1) {
    // No thread pool for a small file.
    Parser Whole(File, BinaryBuildID, Parts.front(), /*FirstLine=*/1);
    if (Error E = Whole.parse())
      return E;
    return Whole.takeProfile();
  }
  std::vector<std::unique_ptr<Parser>> Parsers;
  for (StringRef Part : Parts)
    Parsers.push_back(
        std::make_unique<Parser>(File, BinaryBuildID, Part, /*FirstLine=*/1));
  // Line numbers of a part are only known once the parts before it are
  // counted: a failed part's error is dropped, and the part parsed again,
  // numbered, for the message returned.
  std::vector<char> Failed(Parts.size());
  forEachIndex(Parts.size(), Threads, [&](size_t I) {
    if (Error E = Parsers[I]->parse()) {
      consumeError(std::move(E));
      Failed[I] = true;
    }
  });
  auto FirstFailed = llvm::find(Failed, true);
  if (FirstFailed != Failed.end()) {
    size_t I = FirstFailed - Failed.begin();
    uint64_t FirstLine = 1;
    for (StringRef Before : ArrayRef(Parts).take_front(I))
      FirstLine += Before.count('\n');
    return Parser(File, BinaryBuildID, Parts[I], FirstLine).parse();
  }
  for (size_t I = 1; I < Parts.size(); ++I)
    if (Error E = Parsers.front()->merge(*Parsers[I]))
      return E;
  return Parsers.front()->takeProfile();
}
