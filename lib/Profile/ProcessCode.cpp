//===- ProcessCode.cpp - the code a profiled process ran, by line ---------===//
//
// One pass over the records in file order: mmap events give each process
// its executable mappings (newest first; an exec drops them, a fork copies
// them), each sample's IP or fall-through runs are looked up in its
// process's mappings and charged to the lines of the object's file.
// spreadOverFunctions reads each other object's .eh_frame for its
// functions' bounds.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/ProcessCode.h"
#include "bbmap/Object/FrameRanges.h"
#include "bbmap/Perf/PerfFile.h"
#include "bbmap/Perf/PerfFormat.h"
#include "bbmap/Support/AnyKeyMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <optional>

using namespace llvm;
using namespace bbmap::perf;

namespace bbmap {

namespace {

/// The longest fall-through run charged: longer ones are not runs of one
/// stretch of code (a stack that lost entries, say).
constexpr uint64_t LongestRun = 4096;

struct Mapping {
  uint64_t Start = 0;
  uint64_t End = 0;
  uint64_t PageOffset = 0;
  /// Index into ProcessCode::Objects; Binary for the profiled binary.
  uint32_t Object = 0;
};
constexpr uint32_t Binary = UINT32_MAX;

class LineCollector {
public:
  LineCollector(StringRef BinaryName, uint64_t LineBytes)
      : BinaryName(BinaryName), LineBytes(LineBytes) {}

  Error read(PerfFile &File);
  ProcessCode take() { return std::move(Code); }

private:
  Error record(PerfFile &File, const Record &R);
  void addMapping(const MMapEvent &M);
  /// The mapping of \p PID that holds \p Address, if any.
  const Mapping *mappingOf(int32_t PID, uint64_t Address) const;
  /// Adds one to each line of [From, To] (inclusive) in \p M.
  void charge(const Mapping &M, uint64_t From, uint64_t To);
  void chargeSample(const Sample &S);

  StringRef BinaryName;
  uint64_t LineBytes;
  /// By PID: every int32_t, DenseMap's reserved keys too.
  AnyKeyMap<int32_t, std::vector<Mapping>> Processes;
  StringMap<uint32_t> ObjectIndex;
  ProcessCode Code;
};

void LineCollector::addMapping(const MMapEvent &M) {
  if (!M.Executable || !M.Length)
    return;
  Mapping Map{M.Start, M.Start + M.Length, M.PageOffset, Binary};
  if (sys::path::filename(M.FileName) != BinaryName) {
    auto [It, New] = ObjectIndex.try_emplace(M.FileName, Code.Objects.size());
    if (New)
      Code.Objects.push_back(M.FileName.str());
    Map.Object = It->second;
  }
  Processes[M.PID].push_back(Map);
}

const Mapping *LineCollector::mappingOf(int32_t PID, uint64_t Address) const {
  auto It = Processes.find(PID);
  if (It == Processes.end())
    return nullptr;
  for (const Mapping &M : llvm::reverse(It->second))
    if (Address >= M.Start && Address < M.End)
      return &M;
  return nullptr;
}

void LineCollector::charge(const Mapping &M, uint64_t From, uint64_t To) {
  uint64_t First = (From - M.Start + M.PageOffset) & ~(LineBytes - 1);
  uint64_t Last = (To - M.Start + M.PageOffset) & ~(LineBytes - 1);
  for (uint64_t Line = First; Line <= Last; Line += LineBytes) {
    if (M.Object == Binary)
      ++Code.BinaryWeight;
    else
      ++Code.OtherLines[{M.Object, Line}];
  }
}

void LineCollector::chargeSample(const Sample &S) {
  Code.HasBranches |= S.BranchCount != 0;
  if (!S.BranchCount) {
    if (const Mapping *M = mappingOf(S.PID, S.IP))
      charge(*M, S.IP, S.IP);
    return;
  }
  // Newest entry first: the run after entry I + 1's target ends at entry
  // I's source.
  for (uint64_t I = 0; I + 1 < S.BranchCount; ++I) {
    uint64_t RunStart = S.branch(I + 1).To, RunEnd = S.branch(I).From;
    if (RunEnd < RunStart || RunEnd - RunStart >= LongestRun)
      continue;
    const Mapping *M = mappingOf(S.PID, RunStart);
    if (M && RunEnd < M->End)
      charge(*M, RunStart, RunEnd);
  }
}

Error LineCollector::record(PerfFile &File, const Record &R) {
  switch (R.Type) {
  case record::MMap:
  case record::MMap2: {
    MMapEvent M;
    if (Error E = File.decodeMMap(R, M))
      return E;
    addMapping(M);
    return Error::success();
  }
  case record::Comm: {
    CommEvent C;
    if (Error E = File.decodeComm(R, C))
      return E;
    if (C.Exec)
      Processes.erase(C.PID);
    return Error::success();
  }
  case record::Fork: {
    TaskEvent T;
    if (Error E = File.decodeTask(R, T))
      return E;
    if (T.PID == T.PPID)
      return Error::success();
    // A copy first: inserting the child may grow the table and move the
    // parent's mappings.
    if (auto It = Processes.find(T.PPID); It != Processes.end()) {
      std::vector<Mapping> Parent = It->second;
      Processes[T.PID] = std::move(Parent);
    }
    return Error::success();
  }
  case record::Sample: {
    const Event *Ev = File.eventOf(R);
    if (!Ev)
      return Error::success();
    Sample S;
    if (Error E = File.decodeSample(R, *Ev, S))
      return E;
    chargeSample(S);
    return Error::success();
  }
  default:
    return Error::success();
  }
}

Error LineCollector::read(PerfFile &File) {
  return File.forEachRecord(
      [&](const Record &R) -> Error { return record(File, R); });
}

/// The executable sections of an object: file offsets and addresses.
class CodeSections {
public:
  explicit CodeSections(const object::ELFObjectFileBase &Obj) {
    for (const object::ELFSectionRef S : Obj.sections())
      if ((S.getFlags() & ELF::SHF_EXECINSTR) &&
          S.getType() == ELF::SHT_PROGBITS)
        Sections.push_back({S.getOffset(), S.getAddress(), S.getSize()});
  }
  /// The address of file offset \p Offset, if code is there.
  std::optional<uint64_t> addressOf(uint64_t Offset) const {
    for (const Section &S : Sections)
      if (Offset >= S.Offset && Offset - S.Offset < S.Size)
        return Offset - S.Offset + S.Address;
    return std::nullopt;
  }
  /// The file offset of address \p Address, if code is there.
  std::optional<uint64_t> offsetOf(uint64_t Address) const {
    for (const Section &S : Sections)
      if (Address >= S.Address && Address - S.Address < S.Size)
        return Address - S.Address + S.Offset;
    return std::nullopt;
  }

private:
  struct Section {
    uint64_t Offset = 0;
    uint64_t Address = 0;
    uint64_t Size = 0;
  };
  std::vector<Section> Sections;
};

/// The FDE of \p Frames (sorted) that covers \p Address, if any.
const FrameRange *frameOf(ArrayRef<FrameRange> Frames, uint64_t Address) {
  auto F = llvm::partition_point(
      Frames, [&](const FrameRange &R) { return R.Start <= Address; });
  if (F == Frames.begin() ||
      Address - std::prev(F)->Start >= std::prev(F)->Size)
    return nullptr;
  return &*std::prev(F);
}

/// Spreads the weights of \p Lines (file offset -> weight, of the object
/// at \p Path) over the lines of the FDEs they fall in; what cannot be read
/// goes to \p Warnings.
void spreadInObject(StringRef Path, uint64_t LineBytes,
                    std::vector<std::pair<uint64_t, double>> &Lines,
                    WarningList &Warnings) {
  Expected<object::OwningBinary<object::ObjectFile>> File =
      object::ObjectFile::createObjectFile(Path);
  if (!File)
    return Warnings.add(
        Path, "unable to read " + Path + " (its lines stay as sampled)",
        File.takeError());
  const auto *Obj = dyn_cast<object::ELFObjectFileBase>(File->getBinary());
  if (!Obj)
    return;
  WarningList Mine;
  std::vector<FrameRange> Frames = frameRanges(*Obj, Mine);
  for (StringRef Msg : Mine.messages())
    Warnings.add(Path, Path + ": " + Msg);
  CodeSections Code(*Obj);
  // The weight of each FDE's samples, by its index in Frames (summed in
  // FDE order below, so the same input gives the same weights).
  std::vector<double> ByFrame(Frames.size());
  std::vector<std::pair<uint64_t, double>> Spread;
  for (const auto &[Offset, Weight] : Lines) {
    std::optional<uint64_t> Address = Code.addressOf(Offset);
    const FrameRange *F = Address ? frameOf(Frames, *Address) : nullptr;
    if (F && Code.offsetOf(F->Start))
      ByFrame[F - Frames.data()] += Weight;
    else
      Spread.push_back({Offset, Weight});
  }
  for (size_t I = 0; I != Frames.size(); ++I) {
    if (!ByFrame[I])
      continue;
    uint64_t Start = *Code.offsetOf(Frames[I].Start);
    uint64_t First = alignDown(Start, LineBytes), End = Start + Frames[I].Size;
    double Share = ByFrame[I] / double(divideCeil(End - First, LineBytes));
    for (uint64_t Line = First; Line < End; Line += LineBytes)
      Spread.push_back({Line, Share});
  }
  Lines = std::move(Spread);
}

} // namespace

void spreadOverFunctions(ProcessCode &Code, uint64_t LineBytes) {
  std::vector<std::vector<std::pair<uint64_t, double>>> ByObject(
      Code.Objects.size());
  for (const auto &[Key, Weight] : Code.OtherLines)
    ByObject[Key.first].push_back({Key.second, Weight});
  Code.OtherLines.clear();
  for (uint32_t I = 0; I != ByObject.size(); ++I) {
    llvm::sort(ByObject[I]);
    spreadInObject(Code.Objects[I], LineBytes, ByObject[I], Code.Warnings);
    for (const auto &[Line, Weight] : ByObject[I])
      Code.OtherLines[{I, Line}] += Weight;
  }
}

Expected<ProcessCode> readProcessCode(StringRef PerfData, StringRef BinaryName,
                                      uint64_t LineBytes) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFileOrSTDIN(PerfData, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createStringError(Buffer.getError(), Buffer.getError().message());
  return readProcessCodeBuffer((*Buffer)->getMemBufferRef(), BinaryName,
                               LineBytes);
}

Expected<ProcessCode> readProcessCodeBuffer(MemoryBufferRef PerfData,
                                            StringRef BinaryName,
                                            uint64_t LineBytes) {
  Expected<std::unique_ptr<PerfFile>> File = PerfFile::create(PerfData);
  if (!File)
    return File.takeError();
  LineCollector Collector(BinaryName, LineBytes);
  if (Error E = Collector.read(**File))
    return E;
  return Collector.take();
}

} // namespace bbmap
