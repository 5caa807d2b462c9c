// Terminal sessions written by hand, not by terminal-actions.ts: other names, other tools
// (sed, diff, python3 -c, sh), the way a person or an agent works. `npm run eval:nano`
// records them live in the sandbox and scores them apart ("terminal, hand-written"), so the
// evaluation also says how the model does on sessions no generator of its training data
// could have made. Nothing here is ever trained on.
export const HAND_WRITTEN_SESSIONS: readonly { title: string; commands: readonly string[] }[] = [
  {
    title: 'garden beds',
    commands: ['mkdir -p garden/beds', 'cd garden', "printf 'tomato 4\\nbasil 12\\nkale 7\\n' > plants.txt", 'sort -k2 -n plants.txt',
      "awk '{print $1}' plants.txt", "cut -d' ' -f1 plants.txt | tr a-z A-Z", 'ls -R', 'seq 3 3 12', 'cd beds && pwd'],
  },
  {
    title: 'a python one-off',
    commands: ["python3 -c 'print(2**10)'", "echo 'print(\"hi from py\")' > hello.py", 'python3 hello.py', 'python3 missing.py', 'ls', 'rm hello.py && ls'],
  },
  {
    title: 'reading an access log',
    commands: ["printf 'GET /index 200\\nPOST /login 401\\nGET /about 200\\nGET /missing 404\\n' > access.log", 'grep -c 200 access.log',
      "awk '$3 >= 400' access.log", "cut -d' ' -f2 access.log | sort", 'wc -l access.log', 'grep POST access.log'],
  },
  {
    title: 'editing a config',
    commands: ['mkdir conf && cd conf', "echo 'port=8080' > server.conf", "echo 'debug=false' >> server.conf", 'cat server.conf',
      "sed -i 's/8080/9090/' server.conf", 'grep port server.conf', 'cd ..', 'ls conf'],
  },
  {
    title: 'a deploy script',
    commands: ['export PROJECT=lighthouse', 'echo "building $PROJECT"', "printf '#!/bin/sh\\necho step one\\necho step two\\n' > deploy.sh", 'sh deploy.sh',
      './deploy.sh', 'chmod +x deploy.sh && ./deploy.sh'],
  },
  {
    title: 'wrong turns',
    commands: ['cd /nonexistent', 'rm -r ghost', 'ls -l recipes', 'mkdir recipes', 'touch recipes/soup.md recipes/bread.md', 'ls recipes', 'cat recipes'],
  },
  {
    title: 'a little JSON',
    commands: [`echo '{"name": "orbit", "size": 3}' > meta.json`, 'cat meta.json', `python3 -c 'import json; print(json.load(open("meta.json"))["name"])'`,
      'wc -c meta.json', 'mv meta.json orbit.json', 'ls'],
  },
  {
    title: 'two versions of a file',
    commands: ['echo alpha > one.txt', 'cp one.txt two.txt', 'echo beta >> two.txt', 'diff one.txt two.txt', 'cat one.txt two.txt', 'mv two.txt archive.txt', 'ls'],
  },
];
