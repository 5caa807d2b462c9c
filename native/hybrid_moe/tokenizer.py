"""Byte-level BPE in the Hugging Face tokenizers JSON format (what @huggingface/tokenizers
loads), learned without the Hugging Face Python libraries, plus a Qwen-style ChatML chat
template. The merge learner takes word counts, so callers choose corpus and weighting."""
import re
from collections import Counter, defaultdict

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<think>", "</think>"]
REASONING_TAGS = ("<think>", "</think>")

# The GPT-2 pre-tokenizer split (what ByteLevel use_regex applies), with Python's classes:
# [^\W\d_] is a letter, \d a digit; merges never cross these word boundaries.
GPT2_SPLIT = re.compile(r"'s|'t|'re|'ve|'m|'ll|'d| ?[^\W\d_]+| ?\d+| ?(?:[^\s\w]|_)+|\s+(?!\S)|\s+")


def bytes_to_unicode():
    """GPT-2's reversible map from bytes to printable unicode characters."""
    printable = (list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1))
                 + list(range(ord("®"), ord("ÿ") + 1)))
    chars = printable[:]
    extra = 0
    for b in range(256):
        if b not in printable:
            printable.append(b)
            chars.append(256 + extra)
            extra += 1
    return {b: chr(c) for b, c in zip(printable, chars)}


def byte_words(word_counts):
    """{word text: count} → {tuple of byte symbols: count}."""
    byte_map = bytes_to_unicode()
    out = Counter()
    for word, count in word_counts.items():
        out[tuple(byte_map[b] for b in word.encode("utf-8"))] += count
    return out


def learn_merges(word_counts, num_merges):
    """BPE merges from {word text: count}. Each step merges the most frequent adjacent pair,
    ties broken by the pair itself, so the result never depends on dict order. Pair counts
    are updated incrementally (only words holding the merged pair are revisited)."""
    by_bytes = byte_words(word_counts)
    words = [list(w) for w in by_bytes]
    counts = list(by_bytes.values())
    pairs = Counter()
    where = defaultdict(set)
    for i, word in enumerate(words):
        for a, b in zip(word, word[1:]):
            pairs[(a, b)] += counts[i]
            where[(a, b)].add(i)
    merges = []
    for _ in range(num_merges):
        if not pairs:
            break
        best = max(pairs.items(), key=lambda item: (item[1], item[0]))[0]
        merges.append(best)
        for i in sorted(where.pop(best, ())):
            word, count = words[i], counts[i]
            for a, b in zip(word, word[1:]):
                pairs[(a, b)] -= count
                if pairs[(a, b)] <= 0:
                    del pairs[(a, b)]
            out, j = [], 0
            while j < len(word):
                if j + 1 < len(word) and (word[j], word[j + 1]) == best:
                    out.append(word[j] + word[j + 1])
                    j += 2
                else:
                    out.append(word[j])
                    j += 1
            words[i] = out
            for a, b in zip(out, out[1:]):
                pairs[(a, b)] += count
                where[(a, b)].add(i)
        pairs.pop(best, None)
    return merges


def build_tokenizer(merges):
    """tokenizer.json content and its vocab: special tokens, then the 256 bytes, then one
    token per merge."""
    byte_map = bytes_to_unicode()
    vocab = {}
    for token in SPECIAL_TOKENS:
        vocab[token] = len(vocab)
    for b in range(256):
        vocab[byte_map[b]] = len(vocab)
    for a, b in merges:
        if a + b not in vocab:
            vocab[a + b] = len(vocab)
    # As in Qwen3, the reasoning tags are added tokens but not special ones, so decoding
    # with skip_special_tokens keeps them for the output parser.
    added = [{"id": vocab[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False,
              "normalized": False, "special": t not in REASONING_TAGS} for t in SPECIAL_TOKENS]
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": True}
    tokenizer = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": {"type": "NFC"},
        "pre_tokenizer": byte_level,
        "post_processor": byte_level,
        "decoder": byte_level,
        "model": {
            "type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
            "end_of_word_suffix": "", "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
            "vocab": vocab, "merges": [f"{a} {b}" for a, b in merges],
        },
    }
    return tokenizer, vocab


# A Qwen-style ChatML template: reasoning in past assistant turns is dropped, as Qwen3 does.
CHAT_TEMPLATE = (
    "{%- for message in messages -%}"
    "{%- if message['role'] == 'assistant' and '</think>' in message['content'] -%}"
    "{%- set content = message['content'].split('</think>')[-1].lstrip('\\n') -%}"
    "{%- else -%}{%- set content = message['content'] -%}{%- endif -%}"
    "{{- '<|im_start|>' + message['role'] + '\\n' + content + '<|im_end|>\\n' -}}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\\n' -}}{%- endif -%}"
)


def tokenizer_config(vocab, context_length):
    return {
        "add_bos_token": False,
        "add_prefix_space": False,
        "bos_token": None,
        "eos_token": "<|im_end|>",
        "pad_token": "<|endoftext|>",
        "unk_token": None,
        "model_max_length": context_length,
        "clean_up_tokenization_spaces": False,
        "tokenizer_class": "Qwen2Tokenizer",
        "added_tokens_decoder": {str(vocab[t]): {"content": t, "lstrip": False, "normalized": False,
                                                  "rstrip": False, "single_word": False,
                                                  "special": t not in REASONING_TAGS}
                                 for t in SPECIAL_TOKENS},
        "chat_template": CHAT_TEMPLATE,
    }
