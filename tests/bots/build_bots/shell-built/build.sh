#!/bin/sh
# Stands in for a compiler: writes the executable ./bot, so the test needs no toolchain.
set -eu
printf '#!/bin/sh\necho 0,0,2 > command.txt\n' > bot
chmod +x bot
echo "built ./bot"
