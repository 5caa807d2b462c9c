// Terminal sessions written by hand, not by terminal-actions.ts: other names, other tools
// (sed, diff, python3 -c, sh), the way a person or an agent works. `npm run eval:nano`
// records them live in the sandbox and scores them apart ("terminal, hand-written"), so the
// evaluation also says how the model does on sessions no generator of its training data
// could have made. Nothing here is ever trained on.
//
// Two sets. The first was written with stage 4 and its score there (below the prompt line:
// the model had never seen python3, sed or diff) is why stage 5 added the wide tools to the
// generator (terminal-actions.ts wideVocabulary), so it is no longer blind to stage 5's data
// choices. The second was written after stage 5's data was fixed and before its model was
// scored, with other tools again (tee, xargs, sort -u, fold, comm, od, realpath, find -name,
// heredocs into python3); no choice of data or training has looked at it.
export interface HandWrittenSession {
  title: string;
  commands: readonly string[];
}

export const HAND_WRITTEN_SESSIONS: readonly HandWrittenSession[] = [
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

export const HAND_WRITTEN_SESSIONS_2: readonly HandWrittenSession[] = [
  {
    title: 'a reading list',
    commands: ["printf 'Dune\\nNeuromancer\\nDune\\nSolaris\\n' > books.txt", 'sort -u books.txt', 'sort books.txt | uniq -d', 'echo Hyperion | tee -a books.txt',
      'wc -l books.txt', 'grep -n Dune books.txt', 'tail -n 2 books.txt'],
  },
  {
    title: 'counting with python',
    commands: ["cat > count.py << 'EOF'\nimport sys\nwords = sys.argv[1:]\nprint(len(words), 'words')\nEOF", 'python3 count.py one two three', 'python3 count.py',
      "python3 -c 'print(sum([3, 4, 5]))'", "python3 -c 'import math; print(math.sqrt(81))'", 'python3 -c "print(\'x\' * 5)"'],
  },
  {
    title: 'two inventories',
    commands: ["printf 'bolt\\nnut\\nscrew\\n' > left.txt", "printf 'nut\\nscrew\\nwasher\\n' > right.txt", 'comm -12 left.txt right.txt', 'comm -3 left.txt right.txt',
      'diff left.txt right.txt', 'cat left.txt right.txt | sort -u | wc -l'],
  },
  {
    title: 'a tree of notes',
    commands: ['mkdir -p notes/2025/june notes/2025/july', 'touch notes/2025/june/a.md notes/2025/july/b.md notes/readme.md', "find notes -name '*.md' | sort",
      'find notes -type d | wc -l', 'ls notes/2025', 'realpath notes/2025/june', 'rm -r notes/2025/july && find notes | sort'],
  },
  {
    title: 'bytes and widths',
    commands: ['echo abc | od -c', "printf 'one two three four five six seven\\n' > line.txt", 'fold -w 10 line.txt', 'wc -m line.txt', 'head -c 7 line.txt; echo',
      "tr -d 'aeiou' < line.txt", 'rev line.txt'],
  },
  {
    title: 'xargs and loops',
    commands: ['touch red.tmp green.tmp blue.tmp', 'ls *.tmp | xargs -n 1 echo removing', 'ls *.tmp | wc -l', 'for f in *.tmp; do mv "$f" "${f%.tmp}.bak"; done', 'ls',
      'ls *.tmp'],
  },
  {
    title: 'a settings file',
    commands: ["cat > app.env << 'EOF'\nAPP_PORT=7000\nAPP_MODE=dev\nEOF", '. ./app.env && echo "$APP_MODE on $APP_PORT"', "grep -c '=' app.env",
      "sed 's/dev/prod/' app.env", 'cat app.env', "awk -F= '$1 == \"APP_PORT\" {print $2 + 1}' app.env"],
  },
  {
    title: 'mistakes and recoveries',
    commands: ['mkdir work', 'mkdir work', 'cd work && touch a', 'cd wrok', 'ls ../work', 'rmdir ../work', 'cd .. && rm -r work && ls'],
  },
];
