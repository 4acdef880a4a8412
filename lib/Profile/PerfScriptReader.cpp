//===- PerfScriptReader.cpp - perf script text reader ---------------------===//
//
// PerfScriptReader: a line classifier for perf script text (mmap and task
// records, sample lines of the layouts listed in the header) that hands
// what it reads to a PerfAggregator, which keeps the mappings and counts.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/PerfScriptReader.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace bbmap {

namespace {

constexpr StringLiteral RecordPrefix = "PERF_RECORD_";

/// Fields of a line, split at blanks.
SmallVector<StringRef, 16> splitFields(StringRef Line) {
  SmallVector<StringRef, 16> Fields;
  while (true) {
    Line = Line.ltrim(" \t");
    if (Line.empty())
      return Fields;
    size_t End = Line.find_first_of(" \t");
    Fields.push_back(Line.take_front(End));
    Line = Line.drop_front(std::min(End, Line.size()));
  }
}

bool isHexField(StringRef Field, uint64_t &Value) {
  Field.consume_front("0x");
  return !Field.empty() && !Field.getAsInteger(16, Value);
}

/// `123.456789:`
bool isTimeField(StringRef Field) {
  if (!Field.consume_back(":"))
    return false;
  auto [Seconds, Fraction] = Field.split('.');
  return !Seconds.empty() && !Fraction.empty() && all_of(Seconds, isDigit) &&
         all_of(Fraction, isDigit);
}

/// A PID, or `PID/TID`.
bool parsePID(StringRef Field, int32_t &PID) {
  StringRef Text = Field.split('/').first;
  // DenseMap reserves the extreme int32_t values; perf PIDs are far below.
  return !Text.getAsInteger(10, PID) && PID >= -1 && PID < (1 << 30);
}

/// Reads `0xADDR` with an optional `(DSO)` after it, as perf prints a
/// branch end with -F brstack (and brstack,dso).
bool consumeBranchEnd(StringRef &Text, uint64_t &Address) {
  if (!Text.consume_front("0x"))
    return false;
  size_t Digits = 0;
  while (Digits < Text.size() && isHexDigit(Text[Digits]))
    ++Digits;
  if (Digits == 0 || Text.take_front(Digits).getAsInteger(16, Address))
    return false;
  Text = Text.drop_front(Digits);
  if (Text.consume_front("(")) {
    size_t Close = Text.find(')');
    if (Close == StringRef::npos)
      return false;
    Text = Text.drop_front(Close + 1);
  }
  return true;
}

enum class EntryShape { None, Address, Symbolic };

/// What a field is: `0xFROM/0xTO/FLAGS[/...]` (perf -F brstack), a
/// symbolised entry (`sym+0x10/sym+0x0/P/...`, -F brstacksym), or neither.
EntryShape classifyEntry(StringRef Field) {
  if (Field.starts_with("0x") && Field.contains('/'))
    return EntryShape::Address;
  if (Field.count('/') >= 3 &&
      (Field.contains("+0x") || Field.starts_with("[unknown]")))
    return EntryShape::Symbolic;
  return EntryShape::None;
}

Error lineError(StringRef Buffer, unsigned Line, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(),
                           Buffer + ":" + Twine(Line) + ": " + Message);
}

Error recordError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

} // namespace

PerfScriptReader::PerfScriptReader(const PerfBinary &Binary,
                                   PerfScriptOptions Options)
    : Binary(Binary), Options(std::move(Options)),
      Aggregator(std::make_unique<PerfAggregator>(Binary, this->Options)) {}

Expected<BranchProfile>
PerfScriptReader::read(MemoryBufferRef Text, const PerfBinary &Binary,
                       const PerfScriptOptions &Options) {
  PerfScriptReader Reader(Binary, Options);
  if (Error E = Reader.parse(Text))
    return E;
  return Reader.takeProfile();
}

BranchProfile PerfScriptReader::takeProfile() { return Aggregator->finish(); }

Error PerfScriptReader::parse(MemoryBufferRef Text) {
  StringRef Name = Text.getBufferIdentifier();
  StringRef Rest = Text.getBuffer();
  for (unsigned LineNo = 1; !Rest.empty(); ++LineNo) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    if (Error E = parseLine(Line.rtrim("\r")))
      return lineError(Name, LineNo, toString(std::move(E)));
  }
  return Aggregator->checkMapped(Name);
}

Error PerfScriptReader::parseLine(StringRef Line) {
  // Callchain frames are indented with a tab; their addresses are not the
  // sample's IP and perf prints some relative to their object.
  if (Line.starts_with("\t"))
    return recordError("callchain line: print samples without callchains "
                       "(perf script -G)");
  StringRef Trimmed = Line.trim();
  if (Trimmed.empty() || Trimmed.starts_with("#"))
    return Error::success();
  size_t Record = Trimmed.find(RecordPrefix);
  if (Record == StringRef::npos)
    return parseSample(Trimmed);
  StringRef Body = Trimmed.drop_front(Record + RecordPrefix.size());
  if (Body.starts_with("MMAP"))
    return parseMMap(Body);
  if (Body.starts_with("FORK"))
    return parseFork(Body);
  if (Body.starts_with("COMM exec:"))
    return parseCommExec(Body);
  // EXIT, plain COMM, LOST, KSYMBOL and the like say nothing of addresses.
  return Error::success();
}

// MMAP2 <pid>/<tid>: [<start>(<len>) @ <pgoff> <dev> <ino> <gen>]: <prot>
// <path> MMAP2 <pid>/<tid>: [<start>(<len>) @ <pgoff> <build-id>]: <prot>
// <path> MMAP <pid>/<tid>: [<start>(<len>) @ <pgoff>]: <x|r> <path>
Error PerfScriptReader::parseMMap(StringRef Record) {
  bool Version2 = Record.consume_front("MMAP2");
  if (!Version2 && !Record.consume_front("MMAP"))
    return recordError("malformed mmap record");
  auto [Process, Rest] = Record.ltrim().split(": [");
  int32_t PID;
  if (!parsePID(Process, PID))
    return recordError("mmap record: bad PID '" + Process + "'");
  uint64_t Start, Length, PageOffset;
  auto [StartText, AfterStart] = Rest.split('(');
  auto [LengthText, AfterLength] = AfterStart.split(')');
  if (StartText.getAsInteger(0, Start) || LengthText.getAsInteger(0, Length))
    return recordError("mmap record: bad address range");
  auto [Inside, Tail] = AfterLength.split("]: ");
  StringRef Fields = Inside.ltrim();
  if (!Fields.consume_front("@"))
    return recordError("mmap record: no page offset");
  SmallVector<StringRef, 16> Words = splitFields(Fields);
  if (Words.empty() || Words[0].getAsInteger(0, PageOffset))
    return recordError("mmap record: bad page offset");
  StringRef BuildID;
  for (StringRef W : drop_begin(Words))
    if (W.size() > 2 && W.consume_front("<") && W.consume_back(">"))
      BuildID = W;
  auto [Protection, Path] = Tail.ltrim().split(' ');
  if (Path.empty())
    return recordError("mmap record: no path");
  Path = Path.trim();
  Path.consume_back(" (deleted)");

  PerfMMap M;
  M.PID = PID;
  M.Start = Start;
  M.Length = Length;
  M.PageOffset = PageOffset;
  M.Executable = Version2 ? Protection.size() >= 3 && Protection[2] == 'x'
                          : Protection == "x";
  M.Path = Path;
  M.BuildID = BuildID;
  return Aggregator->mmap(M);
}

// FORK(<child pid>:<child tid>):(<parent pid>:<parent tid>)
Error PerfScriptReader::parseFork(StringRef Record) {
  StringRef Child = Record.split('(').second.split(':').first;
  StringRef Parent = Record.rsplit('(').second.split(':').first;
  int32_t ChildPID, ParentPID;
  if (!parsePID(Child, ChildPID) || !parsePID(Parent, ParentPID))
    return recordError("fork record: bad PID");
  Aggregator->fork(ChildPID, ParentPID);
  return Error::success();
}

// COMM exec: <comm>:<pid>/<tid>
Error PerfScriptReader::parseCommExec(StringRef Record) {
  int32_t PID;
  if (!parsePID(Record.rsplit(':').second, PID))
    return recordError("comm exec record: bad PID");
  Aggregator->exec(PID);
  return Error::success();
}

Error PerfScriptReader::parseSample(StringRef Line) {
  SmallVector<StringRef, 16> Fields = splitFields(Line);
  // The fields before the first `:`-terminated one (time or event) name the
  // process; the event is the first `:`-terminated field that is no time.
  size_t FirstColon = Fields.size(), Event = Fields.size(),
         Time = Fields.size();
  for (size_t I = 0; I < Fields.size(); ++I) {
    if (!Fields[I].ends_with(":") ||
        classifyEntry(Fields[I]) != EntryShape::None)
      continue;
    FirstColon = std::min(FirstColon, I);
    if (isTimeField(Fields[I])) {
      Time = std::min(Time, I);
      continue;
    }
    Event = I;
    break;
  }

  std::optional<int32_t> PID;
  std::optional<uint64_t> IP;
  Stack.clear();
  size_t Body;
  if (FirstColon != Fields.size()) {
    for (size_t I = FirstColon; I-- > 0;) {
      StringRef F = Fields[I];
      if (F.starts_with("[") && F.ends_with("]"))
        continue; // [CPU]
      int32_t Value;
      if (parsePID(F, Value))
        PID = Value;
      break;
    }
    Body = Event != Fields.size() ? Event + 1 : Time + 1;
    uint64_t Value;
    if (Body < Fields.size() &&
        classifyEntry(Fields[Body]) == EntryShape::None &&
        isHexField(Fields[Body], Value))
      IP = Value;
  } else {
    // No time and no event: `PID BRSTACK...` (perf2bolt), `[PID] IP`.
    Body = 0;
    while (Body < Fields.size() &&
           classifyEntry(Fields[Body]) == EntryShape::None)
      ++Body;
    int32_t Value;
    uint64_t Address;
    if (Body == Fields.size()) {
      if (Fields.size() == 2 && parsePID(Fields[0], Value) &&
          isHexField(Fields[1], Address)) {
        PID = Value;
        IP = Address;
      } else if (Fields.size() == 1 && isHexField(Fields[0], Address)) {
        IP = Address;
      } else {
        return recordError("not a perf script sample: '" + Line + "'");
      }
    } else if (Body == 1 && parsePID(Fields[0], Value)) {
      PID = Value;
    } else if (Body != 0) {
      return recordError("not a perf script sample: '" + Line + "'");
    }
  }

  for (size_t I = Body; I < Fields.size(); ++I) {
    StringRef F = Fields[I];
    EntryShape Shape = classifyEntry(F);
    if (Shape == EntryShape::None)
      continue;
    if (Shape == EntryShape::Symbolic)
      return recordError("symbolised branch stack entry '" + F +
                         "': print addresses (perf script -F brstack, not "
                         "brstacksym)");
    PerfBranch Entry;
    StringRef Rest = F;
    if (!consumeBranchEnd(Rest, Entry.From) || !Rest.consume_front("/") ||
        !consumeBranchEnd(Rest, Entry.To) || !Rest.consume_front("/"))
      return recordError("malformed branch stack entry '" + F + "'");
    Entry.Mispred = Rest.split('/').first.contains('M');
    Stack.push_back(Entry);
  }

  Aggregator->event(Event != Fields.size() ? Fields[Event].drop_back()
                                           : StringRef());
  PerfAggregator::ViewID View = Aggregator->view(PID);
  bool OfBinary = !Aggregator->mapsNothing(View);
  Aggregator->counts().countRead(OfBinary && (!IP || *IP), Stack.empty());
  if (IP)
    Aggregator->counts().addSample(View, *IP);
  if (Stack.empty())
    return Error::success();
  if (!OfBinary)
    Aggregator->counts().skipStack(Stack.size());
  else
    Aggregator->counts().addStack(View, Stack);
  return Error::success();
}

} // namespace bbmap
