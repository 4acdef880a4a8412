//===- DriverMode.cpp - choosing and parsing a driver mode ----------------===//
//
// The mode comes from --driver-mode= or the invoked name, as clang's does.
// A drop-in mode parses with cl alone, as perf2bolt does, so that its
// spelling rules (one or two dashes, `-o F` or `-o=F`) are perf2bolt's; a
// cl::Sink list catches the options it does not know, so that each is
// refused in one line naming it.
//
//===----------------------------------------------------------------------===//

#include "DriverMode.h"
#include "bbmap/Support/Diagnostics.h"
#include "bbmap/Support/ToolVersion.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace bbmap {

Expected<DriverMode> selectDriverMode(SmallVectorImpl<const char *> &Args) {
  std::optional<StringRef> Asked;
  for (size_t I = 1; I < Args.size();) {
    StringRef Arg = Args[I];
    if (Arg == "--")
      break;
    if (Arg.consume_front("--driver-mode=")) {
      Asked = Arg;
      Args.erase(Args.begin() + I);
      continue;
    }
    ++I;
  }
  if (Asked) {
    if (*Asked == "perf2bolt")
      return DriverMode::Perf2Bolt;
    if (*Asked == "create_llvm_prof")
      return DriverMode::CreateLLVMProf;
    if (*Asked == "bbmap-profile")
      return DriverMode::BBMapProfile;
    return createStringError("unknown driver mode '" + *Asked +
                             "': bbmap-profile, perf2bolt or "
                             "create_llvm_prof");
  }
  // perf2bolt, perf2bolt-22, perf2bolt-bbmap-22, ...
  StringRef Name = sys::path::filename(Args[0]);
  if (Name.starts_with("perf2bolt"))
    return DriverMode::Perf2Bolt;
  if (Name.starts_with("create_llvm_prof"))
    return DriverMode::CreateLLVMProf;
  return DriverMode::BBMapProfile;
}

void keepOnlyGenericOptions() {
  auto &Options = cl::getRegisteredOptions();
  // cl's own options (--help, --version, --print-options, ...) share the
  // category of --help.
  const cl::Option *Help = Options.lookup("help");
  SetVector<cl::Option *> Drop;
  for (auto &Entry : Options)
    if (!Help || !is_contained(Entry.second->Categories, Help->Categories[0]))
      Drop.insert(Entry.second);
  // Positional and sink options have no name to be found by.
  cl::SubCommand &TopLevel = cl::SubCommand::getTopLevel();
  Drop.insert(TopLevel.PositionalOpts.begin(), TopLevel.PositionalOpts.end());
  Drop.insert(TopLevel.SinkOpts.begin(), TopLevel.SinkOpts.end());
  for (cl::Option *O : Drop)
    O->removeArgument();
}

int runRequest(const ProfileRequest &Request, StringRef ToolName,
               ProfileOutcome &Outcome) {
  Diagnostics Diags(ToolName, outs(), errs());
  Expected<ProfileOutcome> Run = runProfile(Request, Diags);
  if (Run) {
    Outcome = std::move(*Run);
    return 0;
  }
  int Status = Run.errorIsA<RequestError>() ? 2 : 1;
  outs().flush();
  WithColor::error(errs(), ToolName) << toString(Run.takeError()) << "\n";
  return Status;
}

int refuse(StringRef ToolName, const Twine &Msg) {
  WithColor::error(errs(), ToolName) << Msg << "\n";
  return 1;
}

bool parseDropInCommandLine(ArrayRef<const char *> Args, StringRef Overview,
                            StringRef ToolName,
                            const cl::list<std::string> &Unknown,
                            StringRef ModeName) {
  cl::SetVersionPrinter(
      [Name = ToolName.str()](raw_ostream &OS) { printToolVersion(OS, Name); });
  std::string Messages;
  raw_string_ostream Errs(Messages);
  bool Parsed =
      cl::ParseCommandLineOptions(Args.size(), Args.data(), Overview, &Errs);
  if (!Unknown.empty()) {
    StringRef Option = StringRef(Unknown.front()).split('=').first;
    refuse(ToolName, "'" + Option + "' is not an option of " + ModeName +
                         " that bbmap-profile knows (see --help)");
    return false;
  }
  if (Parsed)
    return true;
  // cl's first line says what is wrong, after the program's name. A bad
  // value of an option cl reports itself, in one line on errs().
  StringRef What = StringRef(Messages).split('\n').first;
  What.consume_front(sys::path::filename(Args[0]));
  What.consume_front(": ");
  if (!What.trim().empty())
    refuse(ToolName, What.trim());
  return false;
}

} // namespace bbmap
