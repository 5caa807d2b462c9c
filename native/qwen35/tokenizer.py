"""The one byte-level BPE trainer of native/: Qwen's pre-tokenizer split, Qwen3.5's special
tokens and chat template. make_checkpoint.py trains the fixtures' tokenizer with it on
tokenizer_corpus.txt, world_model/train_tokenizer.py worldloom-nano's on its training chats, so
both folders are laid out like any Qwen3.5 tokenizer and the converter and engine treat them alike."""
from collections.abc import Iterable
from pathlib import Path

from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers

HERE = Path(__file__).resolve().parent
CHAT_TEMPLATE = HERE / "chat_template.jinja"
# The app tests' model (make_checkpoint --chat) answers without thinking.
PLAIN_TEMPLATE = HERE / "chat_template_plain.jinja"

# Special tokens first (ids 0…), as in the Qwen3.5 tokenizer; then the thinking and tool tags,
# tokens that are not "special" (they survive decoding), as in the Qwen3.5 tokenizer.
SPECIAL_TOKENS = [
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|vision_start|>",
    "<|vision_end|>",
    "<|image_pad|>",
    "<|video_pad|>",
]
PLAIN_ADDED_TOKENS = ["<think>", "</think>", "<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>"]
# Qwen-style pre-tokenizer split: contractions, letter runs, single digits, punctuation runs, newlines.
SPLIT_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)


def train_bpe(texts: Iterable[str], merges: int) -> Tokenizer:
    """A byte-level BPE tokenizer with `merges` merges learned from `texts`."""
    if merges < 1:
        raise ValueError("merges must be at least 1")
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(SPLIT_PATTERN), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    tokenizer.decoder = decoders.ByteLevel()
    alphabet = pre_tokenizers.ByteLevel.alphabet()
    trainer = trainers.BpeTrainer(
        vocab_size=len(alphabet) + len(SPECIAL_TOKENS) + merges,
        initial_alphabet=alphabet,
        special_tokens=SPECIAL_TOKENS,
        show_progress=False,
    )
    tokenizer.train_from_iterator(texts, trainer=trainer)
    tokenizer.add_tokens(PLAIN_ADDED_TOKENS)
    return tokenizer


def tokenizer_config(tokenizer: Tokenizer, context_length: int, template: Path | None = None) -> dict:
    """tokenizer_config.json as Qwen3.5 ships it: ChatML template (CHAT_TEMPLATE unless given), <|im_end|> as EOS, no BOS."""
    added = {}
    for token in SPECIAL_TOKENS + PLAIN_ADDED_TOKENS:
        added[str(tokenizer.token_to_id(token))] = {
            "content": token,
            "lstrip": False,
            "normalized": False,
            "rstrip": False,
            "single_word": False,
            "special": token in SPECIAL_TOKENS,
        }
    return {
        "add_bos_token": False,
        "add_prefix_space": False,
        "added_tokens_decoder": added,
        "bos_token": None,
        "chat_template": (template or CHAT_TEMPLATE).read_text(encoding="utf-8"),
        "clean_up_tokenization_spaces": False,
        "eos_token": "<|im_end|>",
        "errors": "replace",
        "model_max_length": context_length,
        "pad_token": "<|endoftext|>",
        "split_special_tokens": False,
        "tokenizer_class": "Qwen2Tokenizer",
        "unk_token": None,
    }
