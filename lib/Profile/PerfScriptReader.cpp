//===- PerfScriptReader.cpp - perf script text reader ---------------------===//
//
// PerfBinary (program headers and build-id of the profiled ELF file) and
// PerfScriptReader: a line classifier for perf script text (mmap and task
// records, sample lines of the layouts listed in the header), the mmap
// address rule, and the aggregation of branch stacks and IP samples.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/PerfScriptReader.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/BuildID.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace llvm::object;

namespace bbmap {

namespace {

template <class ELFT>
Error readSegments(const ELFFile<ELFT> &File, PerfBinary &Binary) {
  auto Headers = File.program_headers();
  if (!Headers)
    return Headers.takeError();
  for (const typename ELFT::Phdr &H : *Headers)
    if (H.p_type == ELF::PT_LOAD)
      Binary.Segments.push_back({H.p_offset, H.p_vaddr, H.p_filesz, H.p_memsz,
                                 (H.p_flags & ELF::PF_X) != 0});
  return Error::success();
}

Error readSegments(const ELFObjectFileBase &Object, PerfBinary &Binary) {
  if (const auto *O = dyn_cast<ELF32LEObjectFile>(&Object))
    return readSegments(O->getELFFile(), Binary);
  if (const auto *O = dyn_cast<ELF32BEObjectFile>(&Object))
    return readSegments(O->getELFFile(), Binary);
  if (const auto *O = dyn_cast<ELF64LEObjectFile>(&Object))
    return readSegments(O->getELFFile(), Binary);
  return readSegments(cast<ELF64BEObjectFile>(Object).getELFFile(), Binary);
}

/// Largest distance between the page offset of a mapping and the p_offset
/// of the segment it maps: the largest page size Linux uses for code.
constexpr uint64_t MaxPageSize = 0x10000;

/// "Runtime - Start + VStart" must not land on DenseMap's reserved keys.
constexpr uint64_t MaxAddress = ~uint64_t(0) - 2;

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

Expected<PerfBinary> PerfBinary::create(const ELFObjectFileBase &File,
                                        StringRef Path) {
  auto Fail = [&](const Twine &Message) {
    return createStringError(inconvertibleErrorCode(), Path + ": " + Message);
  };
  uint16_t Type = File.getEType();
  if (Type != ELF::ET_EXEC && Type != ELF::ET_DYN)
    return Fail("not an ELF executable or shared object");
  PerfBinary Binary;
  Binary.Name = sys::path::filename(Path).str();
  Binary.FixedAddress = Type == ELF::ET_EXEC;
  if (Error E = readSegments(File, Binary))
    return Fail(toString(std::move(E)));
  if (Binary.Segments.empty())
    return Fail("no PT_LOAD segment");
  Binary.BuildID = toHex(getBuildID(&File), /*LowerCase=*/true);
  return Binary;
}

bool PerfBinary::contains(uint64_t Address) const {
  return any_of(Segments, [&](const LoadSegment &S) {
    return Address >= S.VAddr && Address - S.VAddr < S.MemSize;
  });
}

PerfScriptReader::PerfScriptReader(const PerfBinary &Binary,
                                   PerfScriptOptions Options)
    : Binary(Binary), Options(std::move(Options)) {
  if (this->Options.BinaryName.empty())
    this->Options.BinaryName = Binary.Name;
}

Expected<BranchProfile>
PerfScriptReader::read(MemoryBufferRef Text, const PerfBinary &Binary,
                       const PerfScriptOptions &Options) {
  PerfScriptReader Reader(Binary, Options);
  if (Error E = Reader.parse(Text))
    return E;
  return Reader.takeProfile();
}

BranchProfile PerfScriptReader::takeProfile() {
  BranchProfile Result = std::move(Profile);
  Profile = BranchProfile();
  TraceIndex.clear();
  SampleIndex.clear();
  EventNames.clear();
  return Result;
}

Error PerfScriptReader::parse(MemoryBufferRef Text) {
  StringRef Name = Text.getBufferIdentifier();
  StringRef Rest = Text.getBuffer();
  for (unsigned LineNo = 1; !Rest.empty(); ++LineNo) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    if (Error E = parseLine(Line.rtrim("\r")))
      return lineError(Name, LineNo, toString(std::move(E)));
  }
  if (SawSamples && !SawBinaryMapping && !Binary.FixedAddress)
    return createStringError(
        inconvertibleErrorCode(),
        Name + ": no mmap event of " + Options.BinaryName +
            " came before its samples: print them with perf script "
            "--show-mmap-events, or give the name the binary ran under");
  return Error::success();
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

  bool Executable = Version2 ? Protection.size() >= 3 && Protection[2] == 'x'
                             : Protection == "x";
  bool NameMatches = sys::path::filename(Path) == Options.BinaryName;
  bool IDMatches = !BuildID.empty() && !Binary.BuildID.empty() &&
                   BuildID.starts_with_insensitive(Binary.BuildID);
  if (!NameMatches && !IDMatches)
    return Error::success();
  if (!IDMatches && !BuildID.empty() && !Binary.BuildID.empty() &&
      !Options.IgnoreBuildID)
    return recordError("build-id mismatch: " + Path + " ran with build-id " +
                       BuildID + ", " + Binary.Name + " has " + Binary.BuildID);
  if (!Executable || Length == 0 || Start + Length < Start)
    return Error::success();

  const LoadSegment *Best = nullptr;
  for (const LoadSegment &S : Binary.Segments) {
    if (S.Offset < PageOffset || S.Offset - PageOffset >= MaxPageSize ||
        !S.Executable)
      continue;
    if (!Best || S.Offset < Best->Offset)
      Best = &S;
  }
  if (!Best)
    return recordError("mmap of " + Path + " at page offset 0x" +
                       utohexstr(PageOffset) +
                       " maps no executable segment of " + Binary.Name);
  SawBinaryMapping = true;
  Mappings[PID].push_back(
      {Start, Start + Length, PageOffset - Best->Offset + Best->VAddr});
  return Error::success();
}

// FORK(<child pid>:<child tid>):(<parent pid>:<parent tid>)
Error PerfScriptReader::parseFork(StringRef Record) {
  StringRef Child = Record.split('(').second.split(':').first;
  StringRef Parent = Record.rsplit('(').second.split(':').first;
  int32_t ChildPID, ParentPID;
  if (!parsePID(Child, ChildPID) || !parsePID(Parent, ParentPID))
    return recordError("fork record: bad PID");
  if (ChildPID == ParentPID)
    return Error::success();
  auto It = Mappings.find(ParentPID);
  if (It == Mappings.end())
    return Error::success();
  SmallVector<Mapping, 1> Inherited = It->second;
  Mappings[ChildPID] = std::move(Inherited);
  return Error::success();
}

// COMM exec: <comm>:<pid>/<tid>
Error PerfScriptReader::parseCommExec(StringRef Record) {
  int32_t PID;
  if (!parsePID(Record.rsplit(':').second, PID))
    return recordError("comm exec record: bad PID");
  Mappings.erase(PID);
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
  SmallVector<BranchEntry, 32> Stack;
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
    BranchEntry Entry;
    StringRef Rest = F;
    if (!consumeBranchEnd(Rest, Entry.From) || !Rest.consume_front("/") ||
        !consumeBranchEnd(Rest, Entry.To) || !Rest.consume_front("/"))
      return recordError("malformed branch stack entry '" + F + "'");
    Entry.Mispred = Rest.split('/').first.contains('M');
    Stack.push_back(Entry);
  }

  SawSamples = true;
  if (Event != Fields.size())
    addEvent(Fields[Event].drop_back());
  if (IP)
    addSample(PID, *IP);
  if (!Stack.empty())
    addStack(PID, Stack);
  return Error::success();
}

std::optional<uint64_t> PerfScriptReader::translate(std::optional<int32_t> PID,
                                                    uint64_t Runtime) const {
  auto Check = [&](uint64_t Address) -> std::optional<uint64_t> {
    if (Address < MaxAddress && Binary.contains(Address))
      return Address;
    return std::nullopt;
  };
  auto Lookup = [&](ArrayRef<Mapping> List) -> std::optional<uint64_t> {
    for (const Mapping &M : List)
      if (Runtime >= M.Start && Runtime < M.End)
        return Check(Runtime - M.Start + M.VStart);
    return std::nullopt;
  };
  if (!SawBinaryMapping)
    return Binary.FixedAddress ? Check(Runtime) : std::nullopt;
  if (PID) {
    auto It = Mappings.find(*PID);
    return It == Mappings.end() ? std::nullopt : Lookup(It->second);
  }
  for (const auto &Entry : Mappings)
    if (std::optional<uint64_t> Address = Lookup(Entry.second))
      return Address;
  return std::nullopt;
}

void PerfScriptReader::addSample(std::optional<int32_t> PID, uint64_t IP) {
  std::optional<uint64_t> Address = translate(PID, IP);
  if (!Address) {
    ++Profile.Skipped.OtherBinary;
    return;
  }
  auto [It, Inserted] = SampleIndex.try_emplace(*Address, 0);
  if (Inserted) {
    It->second = Profile.Samples.size();
    Profile.Samples.push_back({*Address, 0});
  }
  ++Profile.Samples[It->second].Count;
}

void PerfScriptReader::addStack(std::optional<int32_t> PID,
                                ArrayRef<BranchEntry> Stack) {
  Profile.HasBranches = true;
  if (PID && SawBinaryMapping && !Mappings.count(*PID)) {
    Profile.Skipped.OtherBinary += Stack.size();
    return;
  }
  for (size_t I = 0; I < Stack.size(); ++I) {
    const BranchEntry &Entry = Stack[I];
    std::optional<uint64_t> From = translate(PID, Entry.From);
    std::optional<uint64_t> To = translate(PID, Entry.To);
    if (!From && !To) {
      ++Profile.Skipped.Outside;
      continue;
    }
    Trace T;
    T.From = From.value_or(0);
    T.To = To.value_or(0);
    T.FromExternal = !From;
    T.ToExternal = !To;
    if (I > 0 && To) {
      if (std::optional<uint64_t> End = translate(PID, Stack[I - 1].From)) {
        T.Kind = TraceKind::BranchAndFallthrough;
        T.FallthroughEnd = *End;
      }
    }
    TraceKey Key{T.From, T.To, T.FallthroughEnd,
                 unsigned(T.Kind) << 2 | unsigned(T.FromExternal) << 1 |
                     unsigned(T.ToExternal)};
    auto [It, Inserted] = TraceIndex.try_emplace(Key, 0);
    if (Inserted) {
      It->second = Profile.Traces.size();
      Profile.Traces.push_back(T);
    }
    Trace &Aggregate = Profile.Traces[It->second];
    ++Aggregate.Count;
    Aggregate.Mispreds += Entry.Mispred;
  }
}

void PerfScriptReader::addEvent(StringRef Name) {
  if (!Name.empty() && EventNames.insert(Name).second)
    Profile.Events.push_back(Name.str());
}

} // namespace bbmap
