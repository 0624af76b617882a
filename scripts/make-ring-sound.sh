#!/usr/bin/env sh
# Generates the call ring sound (src/client/features/calls/ring.ogg) with ffmpeg: the classic
# two-tone ringback (440 Hz + 480 Hz), two short bursts with soft edges. Nothing is downloaded;
# run it again to change the sound. The app plays it every 4 s while a call rings.
set -eu
cd "$(dirname "$0")/.."
out=src/client/features/calls/ring.ogg
ffmpeg -hide_banner -loglevel error -y \
  -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=1.6" \
  -f lavfi -i "sine=frequency=480:sample_rate=48000:duration=1.6" \
  -filter_complex "[0][1]amix=inputs=2:normalize=1,volume='if(lt(mod(t,0.8),0.4),1,0)':eval=frame,afade=t=in:d=0.02,afade=t=out:st=1.5:d=0.1,volume=0.6[a]" \
  -map "[a]" -ac 1 -c:a libopus -b:a 32k "$out"
echo "$out"
