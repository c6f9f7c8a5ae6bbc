FROM ./tool.gguf
TEMPLATE """{{- $last := "" }}{{- if .System }}system: {{ .System }}
{{ end }}{{- range .Messages }}{{ .Role }}: {{ .Content }}
{{ $last = .Role }}{{ end }}{{ if eq $last "tool" }}<|t|>{{ else }}<|a|>{{ end }}"""
PARSER qwen3-thinking
PARAMETER temperature 0
PARAMETER num_ctx 4096
PARAMETER num_predict 400
