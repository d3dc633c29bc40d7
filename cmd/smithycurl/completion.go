package main

import (
	"context"
	"fmt"
	"io"
)

// The scripts complete commands, flags and, after --model, operation names
// read from the model given on the same line (smithycurl ops --names).
const bashCompletion = `_smithycurl() {
    local cur prev words cword
    _init_completion 2>/dev/null || { cur="${COMP_WORDS[COMP_CWORD]}"; prev="${COMP_WORDS[COMP_CWORD-1]}"; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }
    if [ "$cword" -eq 1 ]; then
        COMPREPLY=($(compgen -W "call wait presign s3 endpoint credentials ops serve describe example validate ast compile gen completion version" -- "$cur")); return
    fi
    case "$prev" in
        --model|--input) COMPREPLY=($(compgen -f -- "${cur#@}")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "--model --service --endpoint --input -H --bearer --basic --digest --api-key --region --profile --request-checksum-calculation --response-checksum-validation --timeout --retries --retry-mode --endpoint-discovery --validate --no-validate --no-host-prefix --trace --raw --json --expires --listen --fixtures --seed --max-body" -- "$cur")); return
    fi
    local models=() i
    for ((i = 1; i < cword; i++)); do
        [ "${words[i]}" = "--model" ] && models+=(--model "${words[i+1]}")
    done
    [ ${#models[@]} -gt 0 ] && COMPREPLY=($(compgen -W "$(smithycurl ops --names "${models[@]}" 2>/dev/null)" -- "$cur"))
}
complete -o default -F _smithycurl smithycurl
`

const zshCompletion = `#compdef smithycurl
_smithycurl() {
    if (( CURRENT == 2 )); then
        compadd call wait presign s3 endpoint credentials ops serve describe example validate ast compile gen completion version; return
    fi
    case ${words[CURRENT-1]} in
        --model|--input) _files; return ;;
    esac
    if [[ ${words[CURRENT]} == -* ]]; then
        compadd -- --model --service --endpoint --input -H --bearer --basic --digest --api-key --region --profile --request-checksum-calculation --response-checksum-validation --timeout --retries --validate --no-validate --no-host-prefix --trace --raw --json --expires --listen --fixtures --seed --max-body; return
    fi
    local -a models; local i
    for (( i = 2; i < CURRENT; i++ )); do
        [[ ${words[i]} == --model ]] && models+=(--model ${words[i+1]})
    done
    (( ${#models} )) && compadd -- ${(f)"$(smithycurl ops --names $models 2>/dev/null)"}
}
compdef _smithycurl smithycurl
`

func completion(_ context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || (args[0] != "bash" && args[0] != "zsh") {
		fmt.Fprintln(stderr, "Usage: smithycurl completion bash|zsh\n  bash: source <(smithycurl completion bash)\n  zsh:  source <(smithycurl completion zsh)")
		return exitUsage
	}
	if args[0] == "bash" {
		fmt.Fprint(stdout, bashCompletion)
	} else {
		fmt.Fprint(stdout, zshCompletion)
	}
	return 0
}
