// The Atari Agent57 score table ([AE] §5.2.1; Badia et al. 2020, §H.4), built into
// ratingctl for `simulate --generator atari-agent57`: the text of
// tests/data/atari/atari_agent57_table.txt, embedded at build time (CMakeLists.txt).
#pragma once

namespace ratingd {

const char* Agent57Table();

}  // namespace ratingd
