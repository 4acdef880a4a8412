//===- PerfAggregator.cpp - perf records to a BranchProfile ---------------===//
//
// PerfBinary, the mmap address rule, per-process mappings with immutable
// views, and the two-step counting of samples (runtime records per view,
// then each distinct one translated once).
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/PerfAggregator.h"
#include "bbmap/Profile/RecordTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/BuildID.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>
#include <tuple>

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

/// Kernel code lies in the upper half of the address space (x86-64,
/// AArch64).
bool isKernelAddress(uint64_t Address) { return Address >> 63; }

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

bool sameBuildID(StringRef A, StringRef B) {
  auto Trim = [](StringRef ID) {
    while (ID.ends_with("00"))
      ID = ID.drop_back(2);
    return ID;
  };
  return !A.empty() && !B.empty() && Trim(A).equals_insensitive(Trim(B));
}

bool PerfBinary::contains(uint64_t Address) const {
  return any_of(Segments, [&](const LoadSegment &S) {
    return Address >= S.VAddr && Address - S.VAddr < S.MemSize;
  });
}

unsigned PerfAggregator::RawCounts::EntryInfo::getHashValue(const Entry &E) {
  // Independent products: their multiplications overlap.
  uint64_t H = E.From * 0x9e3779b97f4a7c15ULL ^ E.To * 0xbf58476d1ce4e5b9ULL ^
               E.End * 0x94d049bb133111ebULL ^ E.ViewAndEnd;
  return unsigned(H ^ (H >> 32));
}

void PerfAggregator::RawCounts::addStack(ViewID View,
                                         ArrayRef<PerfBranch> Stack) {
  HasBranches = true;
  // Entries with an end in kernel code are left out before the others are
  // paired into runs, as perf2bolt does (--ignore-interrupt-lbr): an
  // interrupt returns where it struck, so the run goes on across it.
  SmallVector<PerfBranch, 32> User;
  for (const PerfBranch &B : Stack)
    if (!isKernelAddress(B.From) && !isKernelAddress(B.To))
      User.push_back(B);
  Read.StackEntries += User.size();
  // LBR sometimes repeats its newest entry: both copies are marked.
  bool Repeated = User.size() > 1 && User[0].From == User[1].From &&
                  User[0].To == User[1].To;
  uint64_t End = 0,
           ViewAndEnd = uint64_t(View) << 2 | (Repeated ? Duplicate : 0);
  for (auto [I, B] : enumerate(User)) {
    Counts &C = Entries[{B.From, B.To, End, ViewAndEnd}];
    ++C.Count;
    C.Mispreds += B.Mispred;
    End = B.From;
    ViewAndEnd |= HasEnd;
    if (I == 1)
      ViewAndEnd &= ~Duplicate;
  }
}

void PerfAggregator::RawCounts::addSample(ViewID View, uint64_t IP) {
  ++Samples[{View, IP}];
}

void PerfAggregator::RawCounts::addBranchSample(ViewID View, uint64_t PC,
                                                uint64_t RunStart) {
  ++BranchSamples[{View, PC, RunStart}];
}

PerfAggregator::PerfAggregator(const PerfBinary &Binary,
                               PerfScriptOptions Options)
    : Binary(Binary), Options(std::move(Options)) {
  if (this->Options.BinaryName.empty())
    this->Options.BinaryName = Binary.Name;
}

PerfAggregator::~PerfAggregator() = default;

const PerfAggregator::MappingList *
PerfAggregator::addMapping(const MappingList *Older, Mapping M) {
  Lists.push_back({M, Older});
  return &Lists.back();
}

void PerfAggregator::setProcess(int32_t PID, const MappingList *List) {
  if (List)
    Processes[PID] = List;
  else
    Processes.erase(PID);
  Changes.push_back({PID, List, Changes.empty() ? nullptr : &Changes.back()});
  AllView.reset();
  LastView.reset();
}

Error PerfAggregator::mmap(const PerfMMap &M) {
  bool NameMatches = sys::path::filename(M.Path) == Options.BinaryName;
  bool IDMatches =
      !Options.ByNameOnly && sameBuildID(M.BuildID, Binary.BuildID);
  if (!NameMatches && !IDMatches)
    return Error::success();
  if (!IDMatches && !M.BuildID.empty() && !Binary.BuildID.empty() &&
      !Options.IgnoreBuildID && !Options.ByNameOnly)
    return recordError("build-id mismatch: " + M.Path + " ran with build-id " +
                       M.BuildID + ", " + Binary.Name + " has " +
                       Binary.BuildID);
  if (!M.Executable || M.Length == 0 || M.Start + M.Length < M.Start)
    return Error::success();

  const LoadSegment *Best = nullptr;
  for (const LoadSegment &S : Binary.Segments) {
    if (S.Offset < M.PageOffset || S.Offset - M.PageOffset >= MaxPageSize ||
        !S.Executable)
      continue;
    if (!Best || S.Offset < Best->Offset)
      Best = &S;
  }
  if (!Best)
    return recordError("mmap of " + M.Path + " at page offset 0x" +
                       utohexstr(M.PageOffset) +
                       " maps no executable segment of " + Binary.Name);
  SawBinaryMapping = true;
  setProcess(M.PID, addMapping(Processes.lookup(M.PID),
                               {M.Start, M.Start + M.Length,
                                M.PageOffset - Best->Offset + Best->VAddr}));
  return Error::success();
}

void PerfAggregator::fork(int32_t Child, int32_t Parent) {
  if (Child == Parent)
    return;
  auto It = Processes.find(Parent);
  if (It == Processes.end())
    return;
  // Lists never change, so the child shares its parent's.
  setProcess(Child, It->second);
}

void PerfAggregator::exec(int32_t PID) {
  if (Processes.contains(PID))
    setProcess(PID, nullptr);
}

void PerfAggregator::event(StringRef Name) {
  SawSamples = true;
  if (!Name.empty() && EventNames.insert(Name).second)
    Events.push_back(Name.str());
}

PerfAggregator::ViewID PerfAggregator::view(std::optional<int32_t> PID) {
  if (!PID) {
    if (!AllView) {
      View V;
      V.SawBinaryMapping = SawBinaryMapping;
      V.All = true;
      V.Table = Changes.empty() ? nullptr : &Changes.back();
      Views.push_back(V);
      AllView = Views.size() - 1;
    }
    return *AllView;
  }
  if (LastView && LastView->first == *PID)
    return LastView->second;
  const MappingList *Maps = Processes.lookup(*PID);
  auto [It, New] = ViewIndex.try_emplace({Maps, unsigned(SawBinaryMapping)}, 0);
  if (New) {
    View V;
    V.Maps = Maps;
    V.SawBinaryMapping = SawBinaryMapping;
    Views.push_back(V);
    It->second = Views.size() - 1;
  }
  LastView = {*PID, It->second};
  return It->second;
}

std::optional<uint64_t> PerfAggregator::check(uint64_t Address) const {
  if (Address < MaxAddress && Binary.contains(Address))
    return Address;
  return std::nullopt;
}

std::optional<uint64_t> PerfAggregator::translate(const View &V,
                                                  uint64_t Runtime) const {
  // The process's oldest mapping that holds the address decides.
  auto Lookup = [&](const MappingList *List) -> std::optional<uint64_t> {
    const Mapping *Holder = nullptr;
    for (; List; List = List->Older)
      if (Runtime >= List->Newest.Start && Runtime < List->Newest.End)
        Holder = &List->Newest;
    if (!Holder)
      return std::nullopt;
    return check(Runtime - Holder->Start + Holder->VStart);
  };
  if (!V.SawBinaryMapping)
    return Binary.FixedAddress ? check(Runtime) : std::nullopt;
  if (!V.All)
    return Lookup(V.Maps);
  // The processes whose mappings changed last come first.
  SmallDenseSet<AnyKey<int32_t>, 16> Seen;
  for (const TableChange *C = V.Table; C; C = C->Earlier)
    if (Seen.insert(C->PID).second)
      if (std::optional<uint64_t> Address = Lookup(C->List))
        return Address;
  return std::nullopt;
}

Error PerfAggregator::checkMapped(StringRef Input) const {
  if (SawSamples && !SawBinaryMapping && !Binary.FixedAddress)
    return createStringError(
        inconvertibleErrorCode(),
        Input + ": no mmap event of " + Options.BinaryName +
            " came before its samples: print them with perf script "
            "--show-mmap-events, or give the name the binary ran under");
  return Error::success();
}

BranchProfile PerfAggregator::finish(std::vector<RawCounts> Others) {
  Others.push_back(std::move(Counts));
  BranchProfile Profile;
  Profile.Events = std::move(Events);
  RecordTable Records;
  DenseMap<std::pair<ViewID, uint64_t>, uint64_t> Samples;
  DenseMap<std::tuple<ViewID, uint64_t, uint64_t>, uint64_t> BranchSamples;
  for (RawCounts &C : Others) {
    Profile.HasBranches |= C.HasBranches;
    Profile.Skipped.OtherBinary += C.OtherBinary;
    Profile.Read.add(C.Read);
    for (const auto &[K, N] : C.Samples)
      Samples[K] += N;
    for (const auto &[K, N] : C.BranchSamples)
      BranchSamples[K] += N;
    for (const auto &[E, Sum] : C.Entries) {
      const View &V = Views[E.ViewAndEnd >> 2];
      std::optional<uint64_t> From = translate(V, E.From);
      std::optional<uint64_t> To = translate(V, E.To);
      // perf2bolt counts every run among its traces, one that leaves the
      // binary as out of range.
      bool HasRun = E.ViewAndEnd & RawCounts::HasEnd;
      std::optional<uint64_t> End =
          HasRun && To ? translate(V, E.End) : std::nullopt;
      if (HasRun && !End)
        Profile.Read.ExternalRuns += Sum.Count;
      // perf2bolt moves an address outside a PIE's mapping but below its
      // size to -1, which as a branch source means no branch: a source of 0
      // (perf's entry for SPE's previous branch target) leaves the run.
      bool NoBranch = !From && E.From == 0 && !Binary.FixedAddress;
      if (NoBranch && !End)
        continue;
      if (!From && !To) {
        Profile.Skipped.Outside += Sum.Count;
        continue;
      }
      Trace T;
      T.From = From.value_or(0);
      T.To = To.value_or(0);
      T.FromExternal = !From && !NoBranch;
      T.ToExternal = !To;
      T.Repeated = E.ViewAndEnd & RawCounts::Duplicate;
      if (End) {
        T.Kind =
            NoBranch ? TraceKind::Fallthrough : TraceKind::BranchAndFallthrough;
        T.FallthroughEnd = *End;
      }
      T.Count = Sum.Count;
      T.Mispreds = Sum.Mispreds;
      auto [Total, New] = Records.addTrace(Profile, T);
      if (!New) {
        Total.Count += Sum.Count;
        Total.Mispreds += Sum.Mispreds;
      }
    }
  }
  for (const auto &[K, N] : Samples) {
    std::optional<uint64_t> Address = translate(Views[K.first], K.second);
    if (!Address) {
      Profile.Skipped.OtherBinary += N;
      continue;
    }
    auto [Total, New] = Records.addSample(Profile, {*Address, N});
    if (!New)
      Total.Count += N;
  }
  // A sampled branch outside the binary is its record's, counted there.
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> AtPC;
  for (const auto &[K, N] : BranchSamples) {
    const View &V = Views[std::get<0>(K)];
    if (std::optional<uint64_t> PC = translate(V, std::get<1>(K)))
      AtPC[{*PC, translate(V, std::get<2>(K)).value_or(0)}] += N;
  }
  for (const auto &[Key, N] : AtPC)
    Profile.BranchSamples.push_back({Key.first, Key.second, N});
  // Hash order is no order: sort, so that equal inputs give equal profiles.
  llvm::sort(Profile.Traces, [](const Trace &A, const Trace &B) {
    return std::tie(A.From, A.To, A.FallthroughEnd, A.Kind, A.FromExternal,
                    A.ToExternal, A.Repeated) <
           std::tie(B.From, B.To, B.FallthroughEnd, B.Kind, B.FromExternal,
                    B.ToExternal, B.Repeated);
  });
  llvm::sort(Profile.Samples, [](const Sample &A, const Sample &B) {
    return A.Address < B.Address;
  });
  // The mappings stay: a later input may have samples of them.
  Counts = RawCounts();
  EventNames.clear();
  Events.clear();
  return Profile;
}

} // namespace bbmap
