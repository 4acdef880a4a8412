//===- dumper/Lookup.cpp - address look-up requests and results -----------===//
//
// Parsing is a hand-written scan (look-up files hold millions of lines) and
// text output formats numbers into a line buffer; JSON goes through
// llvm::json::OStream.
//
//===----------------------------------------------------------------------===//

#include "Lookup.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace bbmap {

namespace {

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

/// Appends "0x<hex>" to \p Out.
void appendHex(SmallVectorImpl<char> &Out, uint64_t Value) {
  char Digits[16];
  int N = 0;
  do {
    Digits[N++] = "0123456789abcdef"[Value & 15];
    Value >>= 4;
  } while (Value);
  Out.append({'0', 'x'});
  while (N)
    Out.push_back(Digits[--N]);
}

void appendDecimal(SmallVectorImpl<char> &Out, uint64_t Value) {
  char Digits[20];
  int N = 0;
  do {
    Digits[N++] = '0' + Value % 10;
    Value /= 10;
  } while (Value);
  while (N)
    Out.push_back(Digits[--N]);
}

void appendMatch(SmallVectorImpl<char> &Line, const BlockMatch &M) {
  appendDecimal(Line, M.Range);
  Line.push_back(' ');
  appendDecimal(Line, M.block().ID);
  Line.push_back(' ');
  appendHex(Line, M.BlockStart);
  Line.push_back(' ');
  appendHex(Line, M.BlockEnd);
  Line.push_back(' ');
  StringRef Name = M.name().empty() ? "<?>" : M.name();
  Line.append(Name.begin(), Name.end());
}

} // namespace

Expected<LookupRequest> parseLookupRequest(StringRef Text) {
  if (std::optional<LookupRequest> R = parseRequest(Text.trim()))
    return *R;
  return invalidAddress(Text);
}

Error parseLookupFile(StringRef Contents,
                      std::vector<LookupRequest> &Requests) {
  size_t LineNo = 0;
  while (!Contents.empty()) {
    auto [Line, Rest] = Contents.split('\n');
    Contents = Rest;
    ++LineNo;
    Line = Line.trim();
    if (Line.empty() || Line.front() == '#')
      continue;
    std::optional<LookupRequest> R = parseRequest(Line);
    if (!R)
      return createStringError(inconvertibleErrorCode(),
                               "line " + Twine(LineNo) + ": " +
                                   toString(invalidAddress(Line)));
    Requests.push_back(*R);
  }
  return Error::success();
}

std::vector<std::optional<BlockMatch>>
resolveAll(const AddressIndex &Index, ArrayRef<LookupRequest> Requests) {
  std::vector<std::optional<BlockMatch>> Results;
  Results.reserve(Requests.size());
  for (const LookupRequest &R : Requests)
    Results.push_back(Index.lookup(R.Address, R.Side));
  return Results;
}

void printLookupText(raw_ostream &OS, StringRef File,
                     ArrayRef<LookupRequest> Requests,
                     ArrayRef<std::optional<BlockMatch>> Results) {
  OS << "# " << File << ": address offset range id start end function\n";
  SmallString<256> Line;
  for (size_t I = 0; I < Requests.size(); ++I) {
    Line.clear();
    appendHex(Line, Requests[I].Address);
    Line.push_back(' ');
    if (const std::optional<BlockMatch> &M = Results[I]) {
      appendHex(Line, Requests[I].Address - M->BlockStart);
      Line.push_back(' ');
      appendMatch(Line, *M);
    } else {
      Line.append({'-', ' ', '-', ' ', '-', ' ', '-', ' ', '-', ' ', '-'});
    }
    Line.push_back('\n');
    OS << Line;
  }
}

void printLookupJSON(json::OStream &J, StringRef File,
                     ArrayRef<LookupRequest> Requests,
                     ArrayRef<std::optional<BlockMatch>> Results) {
  J.object([&] {
    J.attribute("File", File);
    J.attributeArray("Lookups", [&] {
      for (size_t I = 0; I < Requests.size(); ++I)
        J.object([&] {
          J.attribute("Address", Requests[I].Address);
          J.attribute("Side",
                      Requests[I].Side == LookupSide::To ? "to" : "from");
          const std::optional<BlockMatch> &M = Results[I];
          J.attribute("Found", M.has_value());
          if (!M)
            return;
          J.attribute("Function", M->name());
          J.attribute("FunctionAddress", M->function().address());
          J.attribute("Range", M->Range);
          J.attribute("RangeBase", M->function().Ranges[M->Range].BaseAddress);
          J.attribute("ID", M->block().ID);
          J.attribute("BlockStart", M->BlockStart);
          J.attribute("BlockEnd", M->BlockEnd);
          J.attribute("Offset", Requests[I].Address - M->BlockStart);
        });
    });
  });
}

} // namespace bbmap
