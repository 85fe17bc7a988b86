// Files the tests write: `content` under gtest's temporary folder.
#pragma once

#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace ratings::testing {

// Writes `content` to TempDir()/name and returns the path.
inline std::string WriteTemp(const std::string& name, const std::string& content) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << content;
  return path;
}

}  // namespace ratings::testing
