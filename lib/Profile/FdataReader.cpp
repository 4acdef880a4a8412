//===- FdataReader.cpp - BOLT fdata profiles ------------------------------===//
//
// A single pass over the buffer, one line at a time, scanning fields as
// StringRefs. An escaped name is unescaped into one reused buffer, so no
// line allocates unless it names a symbol the resolver does not know.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/FdataReader.h"
#include "ProfileText.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>
#include <limits>

using namespace llvm;
using namespace bbmap;

namespace {

/// A location as read: Address is final for a symbol the resolver knew and
/// the offset as written otherwise.
struct Location {
  uint64_t Address = 0;
  bool External = false;
};

class LineParser {
public:
  LineParser(StringRef FileName, FdataReader::SymbolResolver Resolve,
             FdataProfile &Result)
      : FileName(FileName), Resolve(Resolve), Result(Result),
        P(Result.Profile) {
    P.HasBranches = true;
  }

  Error parse(StringRef Line, uint64_t LineNo);

private:
  Error error(const Twine &Msg) const {
    return createStringError(std::make_error_code(std::errc::invalid_argument),
                             FileName + ":" + Twine(LineNo) + ": " + Msg);
  }

  void skipSpaces() {
    while (Cur != End && *Cur == ' ')
      ++Cur;
  }

  /// The next space-separated field, or an empty one at the end of the line.
  StringRef next() {
    skipSpaces();
    const char *Start = Cur;
    while (Cur != End && *Cur != ' ')
      ++Cur;
    return StringRef(Start, Cur - Start);
  }

  Error parseHeader(StringRef Keyword, bool &Seen);
  Error parseType(const char *What, StringRef Types, const char *Spelled,
                  char &Type);
  Error parseName(const char *What, StringRef &Name);
  Error parseLocation(const char *What, char Type, Location &L);
  Error parseCount(const char *What, uint64_t &Value);
  Error expectEnd(const char *After);
  Error parseBranch(char FromType);
  Error parseSample(char Type);
  Error parseMemory(char FromType);

  StringRef FileName;
  FdataReader::SymbolResolver Resolve;
  FdataProfile &Result;
  BranchProfile &P;
  StringSet<> Unresolved;
  /// Holds an unescaped name.
  SmallString<128> NameBuffer;
  bool SeenNoLBR = false;
  bool SeenRecord = false;
  const char *Cur = nullptr;
  const char *End = nullptr;
  uint64_t LineNo = 0;
};

Error LineParser::parseHeader(StringRef Keyword, bool &Seen) {
  if (SeenRecord)
    return error("'" + Keyword + "' header after the first record");
  if (Seen)
    return error("duplicate '" + Keyword + "' header");
  Seen = true;
  return Error::success();
}

Error LineParser::parseType(const char *What, StringRef Types,
                            const char *Spelled, char &Type) {
  StringRef Field = next();
  if (Field.empty())
    return error(Twine("missing ") + What + " type");
  if (Field.size() != 1 || !Types.contains(Field[0]))
    return error(Twine("expected ") + What + " type " + Spelled + ", found " +
                 quote(Field));
  Type = Field[0];
  return Error::success();
}

Error LineParser::parseName(const char *What, StringRef &Name) {
  skipSpaces();
  const char *Start = Cur;
  bool Escaped = false;
  for (; Cur != End && *Cur != ' '; ++Cur) {
    if (*Cur != '\\')
      continue;
    if (Cur + 1 == End)
      return error(Twine("unterminated escape in ") + What + " name " +
                   quote(StringRef(Start, End - Start)));
    if (Cur[1] != ' ' && Cur[1] != '\\')
      return error(Twine("invalid escape ") + quote(StringRef(Cur, 2)) +
                   " in " + What + " name (only '\\ ' and '\\\\')");
    Escaped = true;
    ++Cur;
  }
  Name = StringRef(Start, Cur - Start);
  if (Name.empty())
    return error(Twine("missing ") + What + " name");
  if (!Escaped)
    return Error::success();
  NameBuffer.clear();
  for (size_t I = 0; I != Name.size(); ++I)
    NameBuffer.push_back(Name[I] == '\\' ? Name[++I] : Name[I]);
  Name = NameBuffer;
  return Error::success();
}

Error LineParser::parseLocation(const char *What, char Type, Location &L) {
  StringRef Name;
  if (Error E = parseName(What, Name))
    return E;
  StringRef Field = next();
  if (Field.empty())
    return error(Twine("missing ") + What + " offset");
  uint64_t Offset = 0;
  for (char C : Field) {
    unsigned Digit = hexDigitValue(C);
    if (Digit == -1U)
      return error(Twine("expected hexadecimal ") + What + " offset, found " +
                   quote(Field));
    if (Offset >> 60)
      return error(Twine(What) + " offset " + quote(Field) +
                   " out of range (more than 64 bits)");
    Offset = Offset << 4 | Digit;
  }
  L.Address = Offset;
  L.External = true;
  // Type 0: a DSO or [unknown]; 3 to 5: memory lines, never resolved.
  if (Type != '1' && Type != '2')
    return Error::success();
  std::optional<uint64_t> Symbol = Resolve(Name);
  if (!Symbol) {
    ++Result.UnresolvedLocations;
    if (Unresolved.insert(Name).second)
      Result.UnresolvedNames.push_back(Name.str());
    return Error::success();
  }
  if (Offset > std::numeric_limits<uint64_t>::max() - *Symbol)
    return error(Twine(What) + " offset " + quote(Field) + " from " +
                 quote(Name) + " overflows 64 bits");
  L.Address = *Symbol + Offset;
  L.External = false;
  return Error::success();
}

Error LineParser::parseCount(const char *What, uint64_t &Value) {
  StringRef Field = next();
  if (Field.empty())
    return error(Twine("missing ") + What);
  CountField Read = readCount(Field, Value);
  if (Read != CountField::Valid)
    return error(countProblem(Read, What, Field));
  return Error::success();
}

Error LineParser::expectEnd(const char *After) {
  StringRef Field = next();
  if (!Field.empty())
    return error(Twine("unexpected field ") + quote(Field) + " after " + After);
  return Error::success();
}

Error LineParser::parseBranch(char FromType) {
  Trace T;
  Location From, To;
  char ToType;
  if (Error E = parseLocation("branch source", FromType, From))
    return E;
  if (Error E = parseType("branch target", "012", "0, 1 or 2", ToType))
    return E;
  if (Error E = parseLocation("branch target", ToType, To))
    return E;
  if (Error E = parseCount("mispredictions", T.Mispreds))
    return E;
  if (Error E = parseCount("count", T.Count))
    return E;
  if (Error E = expectEnd("count"))
    return E;
  if (From.External && To.External) {
    ++P.Skipped.Outside;
    return Error::success();
  }
  T.From = From.Address;
  T.To = To.Address;
  T.FromExternal = From.External;
  T.ToExternal = To.External;
  P.Traces.push_back(T);
  return Error::success();
}

Error LineParser::parseSample(char Type) {
  Location L;
  Sample S;
  if (Error E = parseLocation("sample", Type, L))
    return E;
  if (Error E = parseCount("count", S.Count))
    return E;
  if (Error E = expectEnd("count"))
    return E;
  if (L.External) {
    ++P.Skipped.Outside;
    return Error::success();
  }
  S.Address = L.Address;
  P.Samples.push_back(S);
  return Error::success();
}

Error LineParser::parseMemory(char FromType) {
  Location From, To;
  char ToType;
  uint64_t Count;
  if (Error E = parseLocation("instruction", FromType, From))
    return E;
  if (Error E = parseType("data address", "345", "3, 4 or 5", ToType))
    return E;
  if (Error E = parseLocation("data address", ToType, To))
    return E;
  if (Error E = parseCount("count", Count))
    return E;
  if (Error E = expectEnd("count"))
    return E;
  ++Result.MemoryRecords;
  return Error::success();
}

Error LineParser::parse(StringRef Line, uint64_t N) {
  Cur = Line.begin();
  End = Line.end();
  LineNo = N;
  if (Cur != End && End[-1] == '\r')
    --End;
  skipSpaces();
  if (Cur == End)
    return Error::success();
  const char *Start = Cur;
  StringRef First = next();
  if (First == "no_lbr") {
    if (Error E = parseHeader(First, SeenNoLBR))
      return E;
    P.HasBranches = false;
    for (StringRef Event = next(); !Event.empty(); Event = next())
      P.Events.push_back(Event.str());
    return Error::success();
  }
  if (First == "boltedcollection") {
    if (Error E = parseHeader(First, Result.BoltedCollection))
      return E;
    return expectEnd("boltedcollection");
  }
  SeenRecord = true;
  Cur = Start;
  char Type;
  if (SeenNoLBR) {
    if (Error E = parseType("location", "012", "0, 1 or 2", Type))
      return E;
    return parseSample(Type);
  }
  if (Error E = parseType("location", "012345", "0, 1, 2, 3, 4 or 5", Type))
    return E;
  return Type <= '2' ? parseBranch(Type) : parseMemory(Type);
}

} // namespace

Expected<FdataProfile> FdataReader::read(MemoryBufferRef Buffer,
                                         SymbolResolver Resolve) {
  FdataProfile Result;
  LineParser Parser(Buffer.getBufferIdentifier(), Resolve, Result);
  StringRef Text = Buffer.getBuffer();
  const char *Cur = Text.begin(), *End = Text.end();
  for (uint64_t LineNo = 1; Cur != End; ++LineNo) {
    const char *NL =
        static_cast<const char *>(std::memchr(Cur, '\n', End - Cur));
    const char *LineEnd = NL ? NL : End;
    if (Error E = Parser.parse(StringRef(Cur, LineEnd - Cur), LineNo))
      return E;
    Cur = NL ? NL + 1 : End;
  }
  return Result;
}
