//===- ClusterProfile.cpp - basic-block-sections profiles, read -----------===//
//
// One line at a time, as clang's BasicBlockSectionsProfileReader reads
// them: a specifier letter, a blank, its fields. The first line that is not
// a comment must be `v1` (bbmap-profile writes version 1; version 0, the
// `!name` format, is refused). `c`, `p`, `g` and `h` lines belong to the
// `f` line before them.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Layout/ClusterProfile.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace bbmap {

namespace {

Error lineError(unsigned Line, const Twine &What) {
  return createStringError("line " + Twine(Line) + ": " + What);
}

/// `ID` or `ID.CLONE`, both decimal and within 32 bits.
Expected<ClusterBlock> parseBlock(StringRef Field, unsigned Line) {
  ClusterBlock B;
  auto [Base, Clone] = Field.split('.');
  if (Base.getAsInteger(10, B.ID) ||
      (Field.contains('.') && Clone.getAsInteger(10, B.Clone)))
    return lineError(Line, "'" + Field +
                               "' is not a block ID (ID, or ID.CLONE for a "
                               "path clone)");
  return B;
}

/// The fields of a line after its specifier.
SmallVector<StringRef, 16> fieldsOf(StringRef Rest) {
  SmallVector<StringRef, 16> Fields;
  Rest.split(Fields, ' ', -1, /*KeepEmpty=*/false);
  return Fields;
}

class Reader {
public:
  Expected<ClusterProfile> read(StringRef Text);

private:
  Error readLine(char Specifier, StringRef Rest);
  Error needFunction(char Specifier) const;

  ClusterProfile Profile;
  std::string PendingModule;
  bool HaveVersion = false;
  unsigned Line = 0;
};

Error Reader::needFunction(char Specifier) const {
  if (Profile.Functions.empty())
    return lineError(Line,
                     "a '" + Twine(Specifier) + "' line before any 'f' line");
  return Error::success();
}

Error Reader::readLine(char Specifier, StringRef Rest) {
  SmallVector<StringRef, 16> Fields = fieldsOf(Rest);
  switch (Specifier) {
  case 'm':
    if (Fields.size() != 1)
      return lineError(Line, "an 'm' line names one module");
    PendingModule = Fields[0].str();
    return Error::success();
  case 'f': {
    if (Fields.empty())
      return lineError(Line, "an 'f' line without a function name");
    ClusterFunction F;
    for (StringRef Name : Fields)
      F.Names.push_back(Name.str());
    F.Module = std::move(PendingModule);
    PendingModule.clear();
    F.Line = Line;
    Profile.Functions.push_back(std::move(F));
    return Error::success();
  }
  case 'c': {
    if (Error E = needFunction(Specifier))
      return E;
    std::vector<ClusterBlock> Cluster;
    for (StringRef Field : Fields) {
      Expected<ClusterBlock> B = parseBlock(Field, Line);
      if (!B)
        return B.takeError();
      Cluster.push_back(*B);
    }
    Profile.Functions.back().Clusters.push_back(std::move(Cluster));
    return Error::success();
  }
  case 'p': {
    if (Error E = needFunction(Specifier))
      return E;
    std::vector<uint32_t> Path;
    for (StringRef Field : Fields) {
      uint32_t ID;
      if (Field.getAsInteger(10, ID))
        return lineError(Line, "'" + Field + "' is not a block ID");
      Path.push_back(ID);
    }
    Profile.Functions.back().ClonePaths.push_back(std::move(Path));
    return Error::success();
  }
  case 'g':
  case 'h':
    return needFunction(Specifier);
  default:
    return lineError(Line, "unknown specifier '" + Twine(Specifier) + "'");
  }
}

Expected<ClusterProfile> Reader::read(StringRef Text) {
  while (!Text.empty()) {
    StringRef Current;
    std::tie(Current, Text) = Text.split('\n');
    ++Line;
    Current = Current.trim();
    if (Current.empty() || Current.starts_with("#"))
      continue;
    if (!HaveVersion) {
      if (Current != "v1")
        return lineError(Line, "not a version 1 basic-block-sections "
                               "profile (the first line must be 'v1')");
      HaveVersion = true;
      continue;
    }
    if (Current.size() < 2 || Current[1] != ' ')
      return lineError(Line, "want a specifier letter and a blank, not '" +
                                 Current.take_front(20) + "'");
    if (Error E = readLine(Current[0], Current.drop_front(2)))
      return E;
  }
  if (!HaveVersion)
    return createStringError("an empty profile (no 'v1' line)");
  return std::move(Profile);
}

} // namespace

Expected<ClusterProfile> readClusterProfile(StringRef Text) {
  return Reader().read(Text);
}

std::vector<std::string> readSymbolOrder(StringRef Text) {
  std::vector<std::string> Symbols;
  while (!Text.empty()) {
    StringRef Line;
    std::tie(Line, Text) = Text.split('\n');
    Line = Line.split('#').first.trim();
    if (!Line.empty())
      Symbols.push_back(Line.str());
  }
  return Symbols;
}

} // namespace bbmap
