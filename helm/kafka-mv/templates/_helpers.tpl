{{/* The release's name for its objects, at most 63 characters as Kubernetes names must be. */}}
{{- define "kafka-mv.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "kafka-mv.headless" -}}
{{- printf "%s-headless" (include "kafka-mv.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "kafka-mv.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "kafka-mv.labels" -}}
{{ include "kafka-mv.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* The Secret the chart makes for password authentication when the values name none. */}}
{{- define "kafka-mv.authSecret" -}}
{{- printf "%s-auth" (include "kafka-mv.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The Secret of the PostgreSQL users (key `users`), if any: the one named, or the chart's in password mode. */}}
{{- define "kafka-mv.usersSecret" -}}
{{- if .Values.pgUsersSecret -}}
{{- .Values.pgUsersSecret -}}
{{- else if eq .Values.auth.mode "password" -}}
{{- include "kafka-mv.authSecret" . -}}
{{- end -}}
{{- end -}}

{{/* The Secret of the REST tokens (key `tokens`), if any: the one named, or the chart's in password mode. */}}
{{- define "kafka-mv.tokensSecret" -}}
{{- if .Values.restTokensSecret -}}
{{- .Values.restTokensSecret -}}
{{- else if eq .Values.auth.mode "password" -}}
{{- include "kafka-mv.authSecret" . -}}
{{- end -}}
{{- end -}}
