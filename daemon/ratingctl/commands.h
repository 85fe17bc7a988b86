// ratingctl's subcommands (docs/CONTRACTS.md §2), one function each: reads its flags
// (command_line.h and its own *_command.cc), runs, prints; returns the exit status.
// `params` are the --param values, `kafka` the --kafka values, in order.
#pragma once

#include <string>
#include <vector>

namespace ratingd {

int MethodsCommand();
int RateCommand(std::vector<std::string> params);
int EvalCommand(std::vector<std::string> params);
int GenerateCommand(std::vector<std::string> params);
int EloSweepCommand(const std::vector<std::string>& params);
int SimulateCommand(std::vector<std::string> params);
int SuggestCommand(std::vector<std::string> params);
int GameCommand(std::vector<std::string> params);
int ProduceCommand(const std::vector<std::string>& kafka);
int TailCommand(const std::vector<std::string>& kafka);

// The usage text of --help and of usage errors, with every method's parameters from the
// method table.
std::string Usage();

}  // namespace ratingd
