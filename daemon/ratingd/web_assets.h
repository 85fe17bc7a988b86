// The live leaderboard page's files (daemon/ratingd/web/), compiled into the binary by
// web/embed.cmake: GET / and its script and style need nothing at run time (no CDN, no
// files beside the binary).
#pragma once

#include <string_view>
#include <vector>

namespace ratingd {

struct WebAsset {
  std::string_view path;  // "/index.html", "/page.js", ...
  std::string_view bytes;
};

const std::vector<WebAsset>& WebAssets();

// The asset served at `path` ("/" is "/index.html"), or null: nothing else is served.
inline const WebAsset* FindWebAsset(std::string_view path) {
  if (path == "/") path = "/index.html";
  for (const WebAsset& asset : WebAssets()) {
    if (asset.path == path) return &asset;
  }
  return nullptr;
}

// The Content-Type of an asset, from its extension.
inline std::string_view WebAssetType(std::string_view path) {
  if (path.ends_with(".js")) return "text/javascript; charset=utf-8";
  if (path.ends_with(".css")) return "text/css; charset=utf-8";
  if (path.ends_with(".svg")) return "image/svg+xml";
  return "text/html; charset=utf-8";
}

}  // namespace ratingd
